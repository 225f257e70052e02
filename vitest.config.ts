import { defineConfig } from 'vitest/config';

const apiProject = (kind: 'embedded' | 'postgres') => ({
  extends: true as const,
  test: {
    name: `api-${kind}`,
    include: ['src/server/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    env: { TEST_DATABASE_KIND: kind },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'src/shared/**/*.test.ts',
            'src/web/**/*.test.ts',
            'tests/support/**/*.test.ts',
            'tests/lint/**/*.test.ts',
          ],
        },
      },
      apiProject('embedded'),
      // The same API tests again on a real PostgreSQL server when one is given.
      ...(process.env.TEST_DATABASE_URL ? [apiProject('postgres')] : []),
    ],
  },
});
