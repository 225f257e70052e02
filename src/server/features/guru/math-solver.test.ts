import { afterAll, describe, expect, it } from 'vitest';
import { createMathSolver } from './math-solver.ts';
import { SOLVED_CASES } from './offline-math-cases.ts';
import { solveMathQuestion } from './offline-math.ts';

// In this thread nerdamer takes about 40 s over this one: the chat would freeze for all of that.
const PATHOLOGICAL = 'simplify (x^12-1)/(x-1)';

describe('the math engine in a worker thread', () => {
  // A bound far above an answer's time even on a busy machine (a thread's start does not count against it).
  const solver = createMathSolver({ timeoutMs: 10_000 });
  // The pathological question takes seconds to tens of seconds depending on the runtime: far above this bound.
  const impatientSolver = createMathSolver({ timeoutMs: 1_500 });
  afterAll(() => Promise.all([solver.close(), impatientSolver.close()]));

  it('gives the same answers as the engine in this thread', async () => {
    for (const [question, answer] of SOLVED_CASES.slice(0, 8)) {
      const result = await solver.solve(question);
      expect(result.solved && result.answer, question).toBe(answer);
      expect(result).toEqual(solveMathQuestion(question));
    }
  });

  // How long the decline takes and that the event loop stays free are measured by `npm run bench -- guru`.
  it('declines a question that takes too long and answers the next one', async () => {
    const [slow, next] = await Promise.all([
      impatientSolver.solve(PATHOLOGICAL),
      impatientSolver.solve('solve 2x + 3 = 7'),
    ]);
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
