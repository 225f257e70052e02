import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../platform/worker-threads.ts';
import type { MathJob, MathResult } from './math-worker.ts';
import type { MathAnswer } from './offline-math.ts';

// The offline math engine off the event loop: questions go one at a time to a worker thread; one that takes longer
// than allowed is declined and its thread ended (a new one starts for the next question).

export type MathSolver = {
  /** The engine's answer, or a decline when it takes longer than `timeoutMs`. */
  solve(question: string): Promise<MathAnswer>;
  close(): Promise<void>;
};

type Job = MathJob & { resolve: (answer: MathAnswer) => void };

const DECLINED: MathAnswer = { solved: false };

export function createMathSolver({ timeoutMs }: { timeoutMs: number }): MathSolver {
  let worker: Worker | null = null;
  let nextId = 1;
  const queue: Job[] = [];
  let running: { job: Job; timer: NodeJS.Timeout } | null = null;

  const finish = (answer: MathAnswer) => {
    if (!running) return;
    clearTimeout(running.timer);
    running.job.resolve(answer);
    running = null;
    runNext();
  };

  const stopWorker = () => {
    const current = worker;
    worker = null;
    return current?.terminate().then(() => undefined);
  };

  const ensureWorker = () => {
    if (worker) return worker;
    const started = startWorker({
      source: new URL('./math-worker.ts', import.meta.url),
      bundled: new URL('./guru-math-worker.js', import.meta.url),
    });
    started.on('message', (result: MathResult) => {
      if (running?.job.id === result.id) finish(result.answer);
    });
    // A crashed thread declines the question it had; the next one gets a new thread.
    started.on('error', () => {
      if (worker !== started) return;
      worker = null;
      finish(DECLINED);
    });
    started.unref(); // an idle solver does not keep the process alive
    worker = started;
    return started;
  };

  function runNext() {
    if (running) return;
    const job = queue.shift();
    if (!job) return;
    const timer = setTimeout(() => {
      void stopWorker();
      finish(DECLINED);
    }, timeoutMs);
    running = { job, timer };
    ensureWorker().postMessage({ id: job.id, question: job.question } satisfies MathJob);
  }

  return {
    solve(question) {
      return new Promise((resolve) => {
        queue.push({ id: nextId++, question, resolve });
        runNext();
      });
    },
    async close() {
      for (const job of queue.splice(0)) job.resolve(DECLINED);
      if (running) finish(DECLINED);
      await stopWorker();
    },
  };
}
