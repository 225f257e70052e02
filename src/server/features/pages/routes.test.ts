import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessages } from '../../db/schema/pages.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';

// The contact form is rate limited per address: each test speaks from its own.
let lastOctet = 0;
const freshAddress = () => `10.0.0.${++lastOctet}`;
const postContact = (t: TestApp, payload: unknown, remoteAddress = freshAddress()) =>
  t.app.inject({ method: 'POST', url: '/api/contact', payload: payload as object, remoteAddress });

const valid = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  subject: 'Calculus help',
  message: 'Do you have tutors for calculus?',
};

describe('contact and public settings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SUPPORT_PHONE: '+41 41 555 55 55', WHATSAPP_NUMBER: '41415555555' });
  });
  afterAll(() => t.close());

  it('stores a valid contact message for the admin panel', async () => {
    const response = await postContact(t, { ...valid, name: '  Ada Lovelace  ' });
    expect(response.statusCode).toBe(201);
    const [row] = await t.db.select().from(contactMessages).where(eq(contactMessages.id, response.json().id));
    expect(row).toMatchObject({ ...valid, handled: false });
  });

  it.each([
    ['name', { name: '' }, 'Name is required'],
    ['email', { email: 'not-an-email' }, 'Invalid email address'],
    ['subject', { subject: '   ' }, 'Subject is required'],
    ['message', { message: '' }, 'Message is required'],
  ])('refuses a missing or bad %s with its message and writes nothing', async (field, change, message) => {
    const before = await t.db.$count(contactMessages);
    const response = await postContact(t, { ...valid, ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED', message, fields: { [field]: message } });
    expect(await t.db.$count(contactMessages)).toBe(before);
  });

  it('refuses a body without any field, naming every field', async () => {
    const response = await postContact(t, {});
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().fields).sort()).toEqual(['email', 'message', 'name', 'subject']);
  });

  it('limits one address to 5 messages a minute, with a friendly message', async () => {
    const address = freshAddress();
    for (let i = 0; i < 5; i++) expect((await postContact(t, valid, address)).statusCode).toBe(201);
    const limited = await postContact(t, valid, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many attempts. Please wait a moment and try again.',
    });
    expect((await postContact(t, valid)).statusCode).toBe(201);
  });

  it('shows only the whitelisted public settings', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/settings/public' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      supportPhone: '+41 41 555 55 55',
      supportEmail: 'support@virtualhelp.example',
      whatsappNumber: '41415555555',
      jitsiDomain: 'meet.jit.si',
      payments: true,
      releaseAfterDays: 7,
      commissionPercent: 15,
    });
  });
});
