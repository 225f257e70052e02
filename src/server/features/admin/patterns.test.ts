import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog } from '../../db/schema/admin.ts';
import { moderationPatterns } from '../../db/schema/moderation.ts';
import { contactMessages } from '../../db/schema/pages.ts';
import { createSessionCookie, createSubAdmin, createUser } from '../../../../tests/support/factories.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';

describe('moderation patterns and contact messages', () => {
  let t: TestApp;
  let admin: { id: string; cookie: string };
  beforeAll(async () => {
    t = await createTestApp();
    const user = await createSubAdmin(t.db, ['patterns', 'messages']);
    admin = { id: user.id, cookie: (await createSessionCookie(t.db, user.id)).header };
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: { cookie: admin.cookie } });

  it('blocks a chat message with a pattern added through the API at once, and lets it through once disabled', async () => {
    const [sender, receiver] = [await createUser(t.db), await createUser(t.db)];
    const cookie = (await createSessionCookie(t.db, sender.id)).header;
    const word = `zorgle${randomUUID().slice(0, 6)}`;
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/chat/messages',
        headers: { cookie },
        payload: { clientId: randomUUID(), receiverId: receiver.id, content: `you are a ${word}` },
      });
    // Sent once before, so the filter's cached patterns are warm: the change must reach it anyway.
    expect((await send()).statusCode).toBe(201);

    const added = await call('POST', '/api/admin/patterns', {
      pattern: `\\b${word}s?\\b`,
      category: 'offensive',
      description: 'A new insult',
      sample: `what a ${word.toUpperCase()}!`,
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ category: 'offensive', isActive: true, description: 'A new insult' });
    const blocked = await send();
    expect(blocked.statusCode).toBe(400);
    expect(blocked.json().code).toBe('MESSAGE_BLOCKED');

    const disabled = await call('PATCH', `/api/admin/patterns/${added.json().id}`, { isActive: false });
    expect(disabled.json().isActive).toBe(false);
    expect((await send()).statusCode).toBe(201);

    const audit = await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.objectId, added.json().id));
    expect(audit.map((row) => row.action).sort()).toEqual(['pattern.add', 'pattern.disable']);
    const inactive = (await call('GET', '/api/admin/patterns?status=inactive')).json();
    expect(inactive.items.map((item: { id: string }) => item.id)).toContain(added.json().id);
    const active = (await call('GET', '/api/admin/patterns?status=active')).json();
    expect(active.items.map((item: { id: string }) => item.id)).not.toContain(added.json().id);
  });

  it('checks a long text against a pattern with overlapping alternatives without holding the server', async () => {
    const [sender, receiver] = [await createUser(t.db), await createUser(t.db)];
    const cookie = (await createSessionCookie(t.db, sender.id)).header;
    // Accepted by the checks of a backtracking engine too (its sample has no x), which then took minutes on the text.
    const added = await call('POST', '/api/admin/patterns', { pattern: '(x|x)*yq', category: 'other', sample: 'yq' });
    expect(added.statusCode).toBe(201);
    const started = performance.now();
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/chat/messages',
      headers: { cookie },
      payload: { clientId: randomUUID(), receiverId: receiver.id, content: `${'x'.repeat(40)} marks the spot` },
    });
    expect(sent.statusCode).toBe(201);
    // A hang detector, not a speed target (bench/moderation.ts has those): 2^40 steps before, a few thousand now.
    expect(performance.now() - started).toBeLessThan(5_000);
    await call('PATCH', `/api/admin/patterns/${added.json().id}`, { isActive: false });
  });

  it('refuses a pattern that cannot run in linear time, does not compile, blocks (almost) everything or misses its sample', async () => {
    const before = await t.db.$count(moderationPatterns);
    const auditBefore = await t.db.$count(adminAuditLog);
    const cases: [object, string, string][] = [
      [{ pattern: '(a)\\1', sample: 'aa' }, 'pattern', 'cannot be checked in linear time'],
      [{ pattern: 'buy(?= followers)', sample: 'buy followers' }, 'pattern', 'cannot be checked in linear time'],
      [{ pattern: '\\w{1,999}!', sample: 'ab!' }, 'pattern', 'too long to check'],
      [{ pattern: '([a-z]', sample: 'abc' }, 'pattern', 'not a valid regular expression'],
      [{ pattern: '.*', sample: 'anything' }, 'pattern', 'matches almost every message'],
      [{ pattern: 'e', sample: 'hello' }, 'pattern', 'matches almost every message'],
      [{ pattern: 'badword', sample: 'a kind message' }, 'sample', 'does not match the sample'],
      [{ pattern: 'badword', sample: ' ' }, 'sample', 'Enter a sample message'],
      [
        { pattern: 'badword', sample: `badword ${'x'.repeat(1_000)}` },
        'sample',
        'Sample must be at most 1000 characters',
      ],
      [{ pattern: '', sample: 'x' }, 'pattern', 'Enter a pattern.'],
    ];
    for (const [input, field, text] of cases) {
      const response = await call('POST', '/api/admin/patterns', { category: 'other', ...input });
      expect(response.statusCode, JSON.stringify(input)).toBe(400);
      expect(response.json().fields[field], JSON.stringify(input)).toContain(text);
    }
    expect(await t.db.$count(moderationPatterns)).toBe(before);
    expect(await t.db.$count(adminAuditLog)).toBe(auditBefore);

    const first = await call('POST', '/api/admin/patterns', {
      pattern: 'spamword',
      category: 'other',
      sample: 'SPAMWORD',
    });
    expect(first.statusCode).toBe(201);
    const twice = await call('POST', '/api/admin/patterns', {
      pattern: 'spamword',
      category: 'other',
      sample: 'spamword',
    });
    expect(twice.statusCode).toBe(409);
    expect((await call('PATCH', `/api/admin/patterns/${randomUUID()}`, { isActive: true })).statusCode).toBe(404);
  });

  it('lists contact messages and marks one handled, with who and when', async () => {
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { name: 'Ada', email: 'ada@example.com', subject: 'Refund', message: 'My tutor missed the session.' },
    });
    expect(sent.statusCode).toBe(201);
    const [row] = await t.db.select().from(contactMessages).where(eq(contactMessages.subject, 'Refund'));
    const open = (await call('GET', '/api/admin/contact-messages?status=open')).json();
    expect(open.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: row!.id, name: 'Ada', handled: false, handledBy: null })]),
    );

    const handled = await call('POST', `/api/admin/contact-messages/${row!.id}/handled`, { handled: true });
    expect(handled.statusCode).toBe(200);
    expect(handled.json()).toMatchObject({ handled: true, handledBy: { id: admin.id } });
    expect(Date.now() - Date.parse(handled.json().handledAt)).toBeLessThan(60_000);
    const list = (await call('GET', '/api/admin/contact-messages?status=handled')).json();
    expect(list.items.map((item: { id: string }) => item.id)).toContain(row!.id);
    const [audit] = await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.objectId, row!.id));
    expect(audit).toMatchObject({
      action: 'contact_message.handle',
      before: { handled: false },
      after: { handled: true },
    });

    const reopened = await call('POST', `/api/admin/contact-messages/${row!.id}/handled`, { handled: false });
    expect(reopened.json()).toMatchObject({ handled: false, handledBy: null, handledAt: null });
    const unknown = await call('POST', `/api/admin/contact-messages/${randomUUID()}/handled`, { handled: true });
    expect(unknown.statusCode).toBe(404);
  });
});
