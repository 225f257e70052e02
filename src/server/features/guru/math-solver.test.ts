import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { createMathSolver } from './math-solver.ts';
import { SOLVED_CASES } from './offline-math-cases.ts';
import { solveMathQuestion } from './offline-math.ts';

// In this thread nerdamer takes about 40 s over this one: the chat would freeze for all of that.
const PATHOLOGICAL = 'simplify (x^12-1)/(x-1)';

describe('the math engine in a worker thread', () => {
  const solver = createMathSolver({ timeoutMs: 1_500 });
  afterAll(() => solver.close());

  it('gives the same answers as the engine in this thread', async () => {
    for (const [question, answer] of SOLVED_CASES.slice(0, 8)) {
      const result = await solver.solve(question);
      expect(result.solved && result.answer, question).toBe(answer);
      expect(result).toEqual(solveMathQuestion(question));
    }
  });

  it('declines a question that takes too long, without stalling the event loop, and answers the next one', async () => {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    const [slow, next] = await Promise.all([solver.solve(PATHOLOGICAL), solver.solve('solve 2x + 3 = 7')]);
    delay.disable();
    expect(slow).toEqual({ solved: false });
    expect(next.solved && next.answer).toBe('x = 2');
    // Within its time bound plus the start of a fresh thread (not 40 s), and the loop never blocked for long.
    expect(performance.now() - started).toBeLessThan(6_000);
    expect(delay.max / 1e6).toBeLessThan(200);
  });

  it('declines what is still queued when it closes', async () => {
    const closing = createMathSolver({ timeoutMs: 5_000 });
    const pending = closing.solve(PATHOLOGICAL);
    await closing.close();
    expect(await pending).toEqual({ solved: false });
  });
});
