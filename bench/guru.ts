// Guru AI offline: the time to answer each of the unit-tested math questions (and the declines) in-process,
// once warm. No server: the engine is pure computation, so this is what a student waits for on top of the chat.
import { performance } from 'node:perf_hooks';
import { DECLINED_CASES, SOLVED_CASES } from '../src/server/features/guru/offline-math-cases.ts';
import { solveMathQuestion } from '../src/server/features/guru/offline-math.ts';

const ROUNDS = 5;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

export function benchGuru(): Record<string, string | number>[] {
  const questions = [...SOLVED_CASES.map(([question]) => question), ...DECLINED_CASES];
  for (const question of questions) solveMathQuestion(question); // warm-up: the first parse loads nerdamer's tables
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const question of questions) {
      const start = performance.now();
      solveMathQuestion(question);
      times.push(performance.now() - start);
    }
  }
  times.sort((a, b) => a - b);
  return [
    {
      questions: questions.length,
      answers: times.length,
      'p50 ms': Number(percentile(times, 50).toFixed(2)),
      'p99 ms': Number(percentile(times, 99).toFixed(2)),
      'max ms': Number(percentile(times, 100).toFixed(2)),
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(benchGuru());
