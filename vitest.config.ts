import { defineConfig } from 'vitest/config';

/**
 * API test files whose outcome cannot depend on the kind of database: photos, formulas, files in a bucket, pages and
 * headers, and the embedded database's own parts. They run on the embedded database only.
 */
const DATABASE_INDEPENDENT = [
  'src/server/db/embedded/**/*.test.ts',
  'src/server/features/guru/hostile-photos.test.ts',
  'src/server/features/guru/math-solver.test.ts',
  'src/server/platform/storage/s3-storage.test.ts',
  'src/server/platform/mail/dev-mailbox.test.ts',
  'src/server/http/spa.test.ts',
  'src/server/http/content-security.test.ts',
];

const apiProject = (kind: 'embedded' | 'postgres') => ({
  extends: true as const,
  test: {
    name: `api-${kind}`,
    include: ['src/server/**/*.test.ts'],
    exclude: kind === 'postgres' ? DATABASE_INDEPENDENT : [],
    globalSetup: ['tests/support/global-setup.ts'],
    env: { TEST_DATABASE_KIND: kind },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file builds its own app on its own database and shares no state through modules, so the files of a
    // worker share one module graph: importing the server once per worker rather than once per file.
    isolate: false,
  },
});

export default defineConfig({
  test: {
    // API tests mostly wait on their database, sockets and child processes: three files at a time keep a two-core
    // machine busy (the default is one fewer than the cores, one file at a time on CI's two).
    maxWorkers: 3,
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
      // The tests of every kind of upload and download again with the files in an S3 bucket (s3rver, test-app.ts).
      {
        extends: true as const,
        test: {
          ...apiProject('embedded').test,
          name: 'api-s3',
          include: [
            'src/server/features/profiles/routes.test.ts',
            'src/server/features/chat/rooms.test.ts',
            'src/server/features/chat/messages.test.ts',
            'src/server/features/chat/moderation.test.ts',
            'src/server/features/chat/attachments.test.ts',
            'src/server/features/chat/meetings.test.ts',
            'src/server/features/chat/access.test.ts',
            'src/server/features/chat/orphan-uploads.test.ts',
            'src/server/features/requests/posting.test.ts',
            'src/server/features/requests/attachments.test.ts',
            'src/server/features/requests/student-requests.test.ts',
            'src/server/features/guru/model-server.test.ts',
            'src/server/platform/storage/incoming-files.test.ts',
            'src/server/features/account/export/export.test.ts',
          ],
          env: { TEST_DATABASE_KIND: 'embedded', TEST_STORAGE: 's3' },
        },
      },
      // The same API tests again on a real PostgreSQL server when one is given.
      ...(process.env.TEST_DATABASE_URL ? [apiProject('postgres')] : []),
    ],
  },
});
