import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessages } from '../db/schema/pages.ts';
import { createSessionCookie, createUser, freshClientAddress } from '../../../tests/support/factories.ts';
import { formData, TINY_PNG } from '../../../tests/support/files.ts';
import { createTestApp, type TestApp } from '../../../tests/support/test-app.ts';

const BOUNDARY = 'vh-boundary';
const MIB = 1024 * 1024;

/** A multipart body of `totalBytes` made on demand, counting how much of it the server pulled. */
function hugeMultipart(totalBytes: number) {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  const stream = new Readable({
    read() {
      if (sent === 0) {
        sent += head.length;
        this.push(head);
      } else if (sent < totalBytes) {
        sent += chunk.length;
        this.push(chunk);
      } else {
        this.push(Buffer.from(`\r\n--${BOUNDARY}--\r\n`));
        this.push(null);
      }
    },
  });
  return { stream, pulled: () => sent };
}

describe('request bodies', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp();
    cookie = (await createSessionCookie(t.db, (await createUser(t.db)).id)).header;
  });
  afterAll(() => t.close());

  const contentType = `multipart/form-data; boundary=${BOUNDARY}`;

  it('refuses a 60 MB multipart body to a JSON route with 415 before reading it, signed in or not', async () => {
    for (const headers of [{ 'content-type': contentType }, { 'content-type': contentType, cookie }]) {
      const body = hugeMultipart(60 * MIB);
      const response = await t.app.inject({ method: 'POST', url: '/api/chat/messages', headers, payload: body.stream });
      expect(response.statusCode).toBe(415);
      expect(response.json()).toEqual({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'This kind of request body is not accepted here.',
      });
      expect(body.pulled()).toBeLessThan(MIB);
    }
  });

  it('refuses a signed-out upload before reading it', async () => {
    const body = hugeMultipart(60 * MIB);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/chat/uploads',
      headers: { 'content-type': contentType },
      payload: body.stream,
    });
    expect(response.statusCode).toBe(401);
    expect(body.pulled()).toBeLessThan(MIB);
  });

  it('takes JSON only on JSON routes: text/plain and form posts are refused and nothing is stored', async () => {
    const message = { name: 'Ada', email: 'ada@example.com', subject: 'Hi', message: 'From another site' };
    const before = await t.db.$count(contactMessages);
    for (const [type, payload] of [
      ['text/plain', JSON.stringify(message)],
      ['application/x-www-form-urlencoded', new URLSearchParams(message).toString()],
      ['application/xml', '<message/>'],
    ] as const) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/contact',
        headers: { 'content-type': type },
        payload,
        remoteAddress: freshClientAddress(),
      });
      expect(response.statusCode, type).toBe(415);
      expect(response.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    const multipart = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: formData(message),
      remoteAddress: freshClientAddress(),
    });
    expect(multipart.statusCode).toBe(415);
    expect(await t.db.$count(contactMessages)).toBe(before);
  });

  it('ends an upload with more fields than any form has with 413', async () => {
    const fields = Object.fromEntries(Array.from({ length: 200 }, (_, n) => [`field${n}`, 'x']));
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/chat/uploads',
      headers: { cookie },
      payload: formData(fields, { field: 'file', bytes: TINY_PNG, filename: 'a.png', type: 'image/png' }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers a broken multipart body with 400, not a server error', async () => {
    for (const payload of ['true', `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"\r\n`]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/chat/uploads',
        headers: { cookie, 'content-type': contentType },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        code: 'UNREADABLE_UPLOAD',
        message: 'The upload could not be read. Please try again.',
      });
    }
  });

  it('still takes an upload within its limits', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/chat/uploads',
      headers: { cookie },
      payload: formData({}, { field: 'file', bytes: TINY_PNG, filename: 'a.png', type: 'image/png' }),
    });
    expect(response.statusCode).toBe(201);
  });
});
