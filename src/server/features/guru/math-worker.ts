// The offline math engine in its own thread: nerdamer is synchronous, and a question that makes it work hard must
// not stall the chat (math-solver.ts ends this thread when an answer takes too long).
import { parentPort } from 'node:worker_threads';
import { solveMathQuestion, type MathAnswer } from './offline-math.ts';

export type MathJob = { id: number; question: string };
export type MathResult = { id: number; answer: MathAnswer };
/** Posted once the engine has loaded, so that a question's time bound does not include starting the thread. */
export const MATH_WORKER_READY = 'ready';

parentPort?.postMessage(MATH_WORKER_READY);
parentPort?.on('message', ({ id, question }: MathJob) => {
  parentPort?.postMessage({ id, answer: solveMathQuestion(question) } satisfies MathResult);
});
