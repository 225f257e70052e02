import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessages } from '../db/schema/pages.ts';
import { createSessionCookie, createUser, freshClientAddress } from '../../../tests/support/factories.ts';
import { formData, TINY_PNG } from '../../../tests/support/files.ts';
import { createTestApp, type TestApp } from '../../../tests/support/test-app.ts';

const contact = { name: 'Ada', email: 'ada@example.com', subject: 'Hi', message: 'Hello there' };

describe('cross-site requests', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp();
    cookie = (await createSessionCookie(t.db, (await createUser(t.db)).id)).header;
  });
  afterAll(() => t.close());

  const postContact = (headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: contact,
      headers,
      remoteAddress: freshClientAddress(),
    });

  it('refuses a change sent from another site, and stores nothing', async () => {
    const before = await t.db.$count(contactMessages);
    for (const headers of [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: 'https://sub.localhost' },
    ] as Record<string, string>[]) {
      const response = await postContact(headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(403);
      expect(response.json()).toEqual({
        code: 'CROSS_SITE_REQUEST',
        message: 'This request came from another site and was refused.',
      });
    }
    expect(await t.db.$count(contactMessages)).toBe(before);
  });

  it('refuses a multipart upload from another origin even with a valid session cookie', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/chat/uploads',
      headers: { cookie, origin: 'https://evil.example' },
      payload: formData({}, { field: 'file', bytes: TINY_PNG, filename: 'a.png', type: 'image/png' }),
    });
    expect(response.statusCode).toBe(403);
  });

  it('takes changes from our own pages and from clients that are not browsers', async () => {
    for (const headers of [
      { origin: t.config.publicUrl, 'sec-fetch-site': 'same-origin' },
      { origin: 'http://localhost:80', host: 'localhost:80' },
      { 'sec-fetch-site': 'none' },
      {},
    ] as Record<string, string>[]) {
      expect((await postContact(headers)).statusCode, JSON.stringify(headers)).toBe(201);
    }
  });

  it('lets anyone read', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(response.statusCode).toBe(200);
  });
});
