import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_LIMITS } from '#shared/constants.ts';
import { usageCounters } from '../../db/schema/limits.ts';
import { messages } from '../../db/schema/chat.ts';
import { createSessionCookie, createUser } from '../../../../tests/support/factories.ts';
import { connectSocket } from '../../../../tests/support/socket-client.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { runJobOnce } from '../jobs/interval-jobs.ts';
import { countUse, enforceLimit, expiredUsageCountersJob } from './usage-limits.ts';

describe('usage limits', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp();
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it('gives 50 racing uses 50 distinct counts', async () => {
    const key = `race:${randomUUID()}`;
    const counts = await Promise.all(Array.from({ length: 50 }, () => countUse(t.db, key, 60_000)));
    expect(counts.map((c) => c.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, n) => n + 1));
  });

  it('refuses past the ceiling with the seconds to wait, and starts again once the window has passed', async () => {
    const key = `window:${randomUUID()}`;
    const limit = { max: 2, windowMs: 60_000 };
    await enforceLimit(t.db, key, limit);
    await enforceLimit(t.db, key, limit);
    await expect(enforceLimit(t.db, key, limit)).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      statusCode: 429,
      details: { retryAfterSeconds: expect.any(Number) },
    });
    await t.db
      .update(usageCounters)
      .set({ windowStartedAt: sql`now() - interval '61 seconds'` })
      .where(eq(usageCounters.key, key));
    await expect(enforceLimit(t.db, key, limit)).resolves.toBeUndefined();
  });

  it(`stops a user's chat messages past ${USER_LIMITS.chatMessages.max} a minute, over HTTP and the socket alike`, async () => {
    const [sender, receiver] = [await createUser(t.db), await createUser(t.db)];
    const cookie = (await createSessionCookie(t.db, sender.id)).header;
    const send = (content: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/chat/messages',
        headers: { cookie },
        payload: { clientId: randomUUID(), receiverId: receiver.id, content },
      });
    for (let n = 0; n < USER_LIMITS.chatMessages.max; n++) expect((await send(`message ${n}`)).statusCode).toBe(201);

    const refused = await send('one too many');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('RATE_LIMITED');
    const socket = await connectSocket(url, { cookie });
    const ack = await socket
      .timeout(5_000)
      .emitWithAck('message:send', { clientId: randomUUID(), receiverId: receiver.id, content: 'and by socket' });
    socket.close();
    expect(ack).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
    expect(await t.db.$count(messages, eq(messages.senderId, sender.id))).toBe(USER_LIMITS.chatMessages.max);
  });

  it(`refuses a user's upload past ${USER_LIMITS.uploads.max} in ten minutes before reading it`, async () => {
    const user = await createUser(t.db);
    const cookie = (await createSessionCookie(t.db, user.id)).header;
    await t.db.insert(usageCounters).values({ key: `uploads:${user.id}`, hits: USER_LIMITS.uploads.max });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/chat/uploads',
      headers: { cookie, 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x--',
    });
    expect(response.statusCode).toBe(429);
  });

  it('deletes the counters whose window ended for every limit, and keeps the others', async () => {
    const [old, recent] = [`expired:${randomUUID()}`, `current:${randomUUID()}`];
    await countUse(t.db, old, 60_000);
    await countUse(t.db, recent, 24 * 60 * 60_000);
    await t.db
      .update(usageCounters)
      .set({ windowStartedAt: sql`now() - interval '1 day 1 second'` })
      .where(eq(usageCounters.key, old));
    await t.db
      .update(usageCounters)
      .set({ windowStartedAt: sql`now() - interval '23 hours'` })
      .where(eq(usageCounters.key, recent));
    expect(await runJobOnce({ db: t.db, job: expiredUsageCountersJob })).toBe(true);
    const left = await t.db.select({ key: usageCounters.key }).from(usageCounters);
    expect(left.map((row) => row.key)).not.toContain(old);
    expect(left.map((row) => row.key)).toContain(recent);
  });
});
