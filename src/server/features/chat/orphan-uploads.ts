import { and, eq, like, lt, notExists, sql } from 'drizzle-orm';
import { ORPHAN_UPLOAD_MAX_AGE_MS } from '#shared/constants.ts';
import { messages } from '../../db/schema/chat.ts';
import { storedFiles } from '../../db/schema/limits.ts';
import type { IntervalJob } from '../../platform/jobs/interval-jobs.ts';
import type { Storage } from '../../platform/storage/storage.ts';

/** Chat uploads no message has used within the hour: their files and quota rows are removed. */
export function orphanUploadsJob(storage: Storage): IntervalJob {
  return {
    name: 'delete-orphan-chat-uploads',
    intervalMs: 10 * 60 * 1000,
    async run({ db }) {
      const orphans = await db
        .delete(storedFiles)
        .where(
          and(
            like(storedFiles.key, 'chat/%'),
            lt(storedFiles.createdAt, sql`now() - make_interval(secs => ${ORPHAN_UPLOAD_MAX_AGE_MS / 1000})`),
            notExists(
              db
                .select({ one: sql`1` })
                .from(messages)
                .where(eq(messages.fileUrl, storedFiles.key)),
            ),
          ),
        )
        .returning({ key: storedFiles.key });
      await Promise.all(orphans.map(({ key }) => storage.delete(key)));
      return orphans.length;
    },
  };
}
