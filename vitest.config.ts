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
      {
        extends: true,
        // The developer's tools as a developer runs them (the dev loop), each started as its own processes.
        test: { name: 'tooling', include: ['tests/tooling/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 120_000 },
      },
      apiProject('embedded'),
      // The same API tests again on a real PostgreSQL server when one is given.
      ...(process.env.TEST_DATABASE_URL ? [apiProject('postgres')] : []),
    ],
  },
});
