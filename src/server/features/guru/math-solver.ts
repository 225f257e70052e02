import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../system/worker-threads.ts';
import { MATH_WORKER_READY, type MathJob, type MathResult } from './math-worker.ts';
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
  let running: { job: Job; timer?: NodeJS.Timeout } | null = null;
  /** Questions are posted once the thread has loaded the engine (it says so first). */
  let isReady = false;

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
    isReady = false;
    return current?.terminate().then(() => undefined);
  };

  const ensureWorker = () => {
    if (worker) return worker;
    const started = startWorker({
      source: new URL('./math-worker.ts', import.meta.url),
      bundled: new URL('./guru-math-worker.js', import.meta.url),
    });
    started.on('message', (result: MathResult | typeof MATH_WORKER_READY) => {
      if (result === MATH_WORKER_READY) {
        if (worker !== started) return;
        isReady = true;
        if (running) post(running.job);
      } else if (running?.job.id === result.id) finish(result.answer);
    });
    // A thread that crashes or ends declines the question it had; the next one gets a new thread.
    const onEnd = () => {
      if (worker !== started) return;
      worker = null;
      isReady = false;
      finish(DECLINED);
    };
    started.on('error', onEnd).on('exit', onEnd);
    started.unref(); // an idle solver does not keep the process alive
    worker = started;
    return started;
  };

  /** Hands the running question to the ready thread, and gives it `timeoutMs`. */
  function post(job: Job) {
    running!.timer = setTimeout(() => {
      void stopWorker();
      finish(DECLINED);
    }, timeoutMs);
    worker!.postMessage({ id: job.id, question: job.question } satisfies MathJob);
  }

  function runNext() {
    if (running) return;
    const job = queue.shift();
    if (!job) return;
    running = { job };
    ensureWorker();
    if (isReady) post(job);
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
