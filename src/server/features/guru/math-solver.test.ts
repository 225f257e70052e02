import { afterAll, describe, expect, it } from 'vitest';
import { createMathSolver } from './math-solver.ts';
import { SOLVED_CASES } from './offline-math-cases.ts';
import { solveMathQuestion } from './offline-math.ts';

// In this thread nerdamer takes about 40 s over this one: the chat would freeze for all of that.
const PATHOLOGICAL = 'simplify (x^12-1)/(x-1)';

describe('the math engine in a worker thread', () => {
  // A bound far above an answer's time (a fresh thread's start included) even on a busy machine, and far below the
  // 40 s of the pathological question: the tests pass or fail on what the solver does, not on the machine's speed.
  const solver = createMathSolver({ timeoutMs: 10_000 });
  afterAll(() => solver.close());

  it('gives the same answers as the engine in this thread', async () => {
    for (const [question, answer] of SOLVED_CASES.slice(0, 8)) {
      const result = await solver.solve(question);
      expect(result.solved && result.answer, question).toBe(answer);
      expect(result).toEqual(solveMathQuestion(question));
    }
  });

  // How long the decline takes and that the event loop stays free are measured by `npm run bench -- guru`.
  it('declines a question that takes too long and answers the next one', async () => {
    const [slow, next] = await Promise.all([solver.solve(PATHOLOGICAL), solver.solve('solve 2x + 3 = 7')]);
    expect(slow).toEqual({ solved: false });
    expect(next.solved && next.answer).toBe('x = 2');
  });

  it('declines what is still queued when it closes', async () => {
    const closing = createMathSolver({ timeoutMs: 5_000 });
    const pending = closing.solve(PATHOLOGICAL);
    await closing.close();
    expect(await pending).toEqual({ solved: false });
  });
});
