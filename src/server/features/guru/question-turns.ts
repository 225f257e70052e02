// Guru AI is shared fairly: each student has one question being answered at a time, and the questions being answered
// at once (queued for the math engine and the photo reader, or at the model server) are bounded, so that one student's
// questions never stand in front of another's and a crowd gets a clear "busy" instead of an ever longer wait.
// Counted in this process: each node of a cluster answers the questions it was sent.
import { guruMessages } from '#shared/schemas/guru.ts';
import { AppError } from '../../http/errors.ts';

/** A question's place: given up once it is answered, or when it was not stored after all. */
export type QuestionTurn = { release: () => void };

export function createQuestionTurns({ capacity }: { capacity: number }) {
  const answering = new Set<string>();
  return {
    /** The student's turn, or a refusal in plain words: 429 while their last question is answered, 503 when full. */
    take(studentId: string): QuestionTurn {
      if (answering.has(studentId)) throw new AppError('RATE_LIMITED', { message: guruMessages.oneAtATime });
      if (answering.size >= capacity) throw new AppError('BUSY', { message: guruMessages.busy });
      answering.add(studentId);
      let released = false;
      return {
        release: () => {
          if (released) return;
          released = true;
          answering.delete(studentId);
        },
      };
    },
  };
}
