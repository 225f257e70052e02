import dc from 'node:diagnostics_channel';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestDatabase } from '../../../tests/support/test-database.ts';
import { testConfig } from '../../../tests/support/test-config.ts';
import { errorMessages } from '#shared/errors.ts';
import { buildApp } from '../app.ts';
import type { DatabaseHandle } from '../db/client.ts';

// No statement found so far ends the embedded database's worker from inside, so the test ends it from outside: the
// thread is taken from Node's own `worker_threads` channel as it is created, and terminated once the app runs.
const describeOnEmbedded = inject('databaseTemplate').kind === 'embedded' ? describe : describe.skip;

describeOnEmbedded('an embedded database whose worker ends after start-up', () => {
  let database: DatabaseHandle;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let databaseWorker: Worker | undefined;
  const failures: Error[] = [];

  beforeAll(async () => {
    const remember = ({ worker }: { worker: Worker }) => (databaseWorker ??= worker);
    dc.subscribe('worker_threads', remember as (message: unknown) => void);
    try {
      database = await openTestDatabase();
    } finally {
      dc.unsubscribe('worker_threads', remember as (message: unknown) => void);
    }
    app = await buildApp(testConfig(), { database });
    await app.ready();
    database.onFailure((error) => failures.push(error));
  }, 120_000);

  // Closing waits for each background worker's pass in flight, and with the worker gone each waits out its
  // connection timeout (30 s on the embedded database) before it fails.
  afterAll(async () => {
    await app.close();
    await database.close();
  }, 150_000);

  it('answers every request 503 from then on, and the process goes on', async () => {
    expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);

    const ended = new Promise((resolve) => databaseWorker!.once('exit', resolve));
    await databaseWorker!.terminate();
    await ended;

    for (const url of ['/api/health', '/livez', '/readyz', '/api/requests/mine', '/sign-in']) {
      const answer = await app.inject({ url });
      expect(answer.statusCode, `${url} ${answer.body}`).toBe(503);
      expect(answer.json()).toEqual({ code: 'SERVICE_UNAVAILABLE', message: errorMessages.SERVICE_UNAVAILABLE });
    }
    expect(database.failure()?.message).toMatch(/worker exited/);
    // Told once, however many requests met the loss afterwards.
    expect(failures).toHaveLength(1);
  });
});
