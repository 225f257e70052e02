// Guru AI is shared fairly: each student has one question being answered at a time, and the questions being answered
// at once (queued for the math engine and the photo reader, or at the model server) are bounded, so that one student's
// questions never stand in front of another's and a crowd gets a clear "busy" instead of an ever longer wait.
// The student's turn is held in the database, so every server of a cluster refuses their next question; the bound is
// counted in this process, since each node's engine answers the questions that node was sent.
import type { FastifyBaseLogger } from 'fastify';
import { and, eq, lte, sql } from 'drizzle-orm';
import { guruMessages } from '#shared/schemas/guru.ts';
import type { Database } from '../../db/client.ts';
import { guruQuestionTurns } from '../../db/schema/guru.ts';
import { AppError } from '../../http/errors.ts';
import type { IntervalJob } from '../../platform/jobs/interval-jobs.ts';

/** A question's place: given up once it is answered, or when it was not stored after all. */
export type QuestionTurn = { release: () => Promise<void> };

export function createQuestionTurns({
  db,
  capacity,
  holdMs,
  log,
}: {
  db: Database;
  capacity: number;
  /** How long a turn is held at most: a little above the longest answer, for a server that stops mid-answer. */
  holdMs: number;
  log: FastifyBaseLogger;
}) {
  let answering = 0;
  const expiry = sql`now() + make_interval(secs => ${holdMs / 1000})`;

  /** The student's turn for this question, unless another of theirs holds one that has not expired. */
  const holdTurn = async (studentId: string, clientId: string) => {
    const held = await db
      .insert(guruQuestionTurns)
      .values({ studentId, clientId, expiresAt: expiry })
      .onConflictDoUpdate({
        target: guruQuestionTurns.studentId,
        set: { clientId, expiresAt: expiry },
        setWhere: lte(guruQuestionTurns.expiresAt, sql`now()`),
      })
      .returning({ studentId: guruQuestionTurns.studentId });
    return held.length > 0;
  };
  const giveBack = (studentId: string, clientId: string) =>
    db
      .delete(guruQuestionTurns)
      .where(and(eq(guruQuestionTurns.studentId, studentId), eq(guruQuestionTurns.clientId, clientId)));

  return {
    /** The student's turn, or a refusal in plain words: 429 while their last question is answered, 503 when full. */
    async take(studentId: string, clientId: string): Promise<QuestionTurn> {
      if (!(await holdTurn(studentId, clientId))) {
        throw new AppError('RATE_LIMITED', { message: guruMessages.oneAtATime });
      }
      if (answering >= capacity) {
        await giveBack(studentId, clientId);
        throw new AppError('BUSY', { message: guruMessages.busy });
      }
      answering += 1;
      let released = false;
      return {
        release: async () => {
          if (released) return;
          released = true;
          answering -= 1;
          // A turn that cannot be given back now (the database is away) expires by itself.
          await giveBack(studentId, clientId).catch((error: unknown) =>
            log.warn({ err: error }, 'a Guru AI turn was left to expire'),
          );
        },
      };
    },
  };
}

/** Turns whose hold expired (their server stopped mid-answer) are deleted every hour. */
export const expiredQuestionTurnsJob: IntervalJob = {
  name: 'expired-guru-question-turns',
  intervalMs: 60 * 60 * 1000,
  run: ({ db }) => db.delete(guruQuestionTurns).where(lte(guruQuestionTurns.expiresAt, sql`now()`)),
};
