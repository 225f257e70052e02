// Guru AI offline: the time to answer each unit-tested math question (and the declines), in-process and through the
// worker thread the server uses (what a student waits for on top of the chat), a question that would keep the engine
// busy for ~40 s, and reading the test photo (an equation drawn by Chromium) with tesseract.js.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createMathSolver } from '../src/server/features/guru/math-solver.ts';
import { DECLINED_CASES, SOLVED_CASES } from '../src/server/features/guru/offline-math-cases.ts';
import { solveMathQuestion } from '../src/server/features/guru/offline-math.ts';
import { createPhotoReader } from '../src/server/features/guru/photo-reader.ts';
import { renderTextPng } from '../tests/support/render-png.ts';

const ROUNDS = 5;
const MATH_TIMEOUT_MS = 3_000; // as the server's
// A declined question costs its time bound plus the start of a fresh thread (not the ~40 s of the work), and the
// event loop is never held while the thread works.
const DECLINE_BUDGET_MS = MATH_TIMEOUT_MS + 3_000;
const LOOP_DELAY_BUDGET_MS = 200;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

const row = (what: string, times: number[], extra: Record<string, string | number> = {}) => {
  const sorted = times.toSorted((a, b) => a - b);
  return {
    what,
    runs: times.length,
    'p50 ms': Number(percentile(sorted, 50).toFixed(2)),
    'p99 ms': Number(percentile(sorted, 99).toFixed(2)),
    'max ms': Number(percentile(sorted, 100).toFixed(2)),
    ...extra,
  };
};

async function timeEach(questions: string[], solve: (question: string) => unknown) {
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const question of questions) {
      const start = performance.now();
      await solve(question);
      times.push(performance.now() - start);
    }
  }
  return times;
}

export async function benchGuru() {
  const questions = [...SOLVED_CASES.map(([question]) => question), ...DECLINED_CASES];
  for (const question of questions) solveMathQuestion(question); // warm-up: the first parse loads nerdamer's tables
  const inProcess = await timeEach(questions, solveMathQuestion);

  const solver = createMathSolver({ timeoutMs: MATH_TIMEOUT_MS });
  const rows: Record<string, string | number>[] = [row(`${questions.length} questions, in-process`, inProcess)];
  let withinBudget: boolean;
  try {
    for (const question of questions) await solver.solve(question);
    rows.push(
      row(
        `${questions.length} questions, worker thread`,
        await timeEach(questions, (question) => solver.solve(question)),
      ),
    );
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const start = performance.now();
    await solver.solve('simplify (x^12-1)/(x-1)');
    delay.disable();
    const declinedMs = performance.now() - start;
    const loopDelayMs = delay.max / 1e6;
    withinBudget = declinedMs < DECLINE_BUDGET_MS && loopDelayMs < LOOP_DELAY_BUDGET_MS;
    rows.push(
      row('pathological question, declined at the bound', [declinedMs], {
        'loop delay max ms': Number(loopDelayMs.toFixed(1)),
        budget: withinBudget ? 'ok' : `MISSED: ${DECLINE_BUDGET_MS} ms, loop delay ${LOOP_DELAY_BUDGET_MS} ms`,
      }),
    );
  } finally {
    await solver.close();
  }

  const photo = await renderTextPng(['2x + 3 = 7'], { fontSize: 40 });
  const reader = createPhotoReader({ timeoutMs: 20_000 });
  try {
    const start = performance.now();
    await reader.read(photo);
    const first = performance.now() - start;
    const warm: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const started = performance.now();
      await reader.read(photo);
      warm.push(performance.now() - started);
    }
    rows.push(row('photo read (OCR), first with worker start', [first]));
    rows.push(row('photo read (OCR), warm', warm));
  } finally {
    await reader.close();
  }
  return { rows, withinBudget };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const guru = await benchGuru();
  console.table(guru.rows);
  if (!guru.withinBudget) process.exitCode = 1;
}
