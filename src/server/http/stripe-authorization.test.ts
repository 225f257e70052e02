import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema/auth.ts';
import { call, signedInStudent, signedInTeacher, type Caller } from '../../../tests/support/callers.ts';
import { startCheckout } from '../../../tests/support/checkout.ts';
import { createBid, createRequest, createSubject, freshClientAddress } from '../../../tests/support/factories.ts';
import { startStripeFake, type StripeFake } from '../../../tests/support/stripe-fake.ts';
import { createTestApp, type TestApp } from '../../../tests/support/test-app.ts';

// The routes registered only under PAYMENTS_PROVIDER=stripe, which the authorization matrix and the fuzzer (built on
// the default provider) never see: each × every kind of caller, then hostile requests to each. A Stripe route added
// without a row here fails the first test.

const ACTORS = ['anonymous', 'otherStudent', 'otherTeacher', 'student', 'teacher'] as const;
type Actor = (typeof ACTORS)[number];
type World = { checkoutId: string };
type Row = { expected: Record<Actor, number>; call: (world: World) => { url: string; payload?: object } };

/** Signed out 401, the other side's role 403, the other student's checkout 404, its owner `owner`. */
const studentsCheckout = (owner: number): Record<Actor, number> => ({
  anonymous: 401,
  otherStudent: 404,
  otherTeacher: 403,
  teacher: 403,
  student: owner,
});

// In order: the owners' successes that later rows build on come first (a payment started before it is confirmed,
// an account set up before it is read).
const STRIPE_MATRIX: Record<string, Row> = {
  'POST /api/checkouts/{id}/stripe-payment': {
    expected: studentsCheckout(200),
    call: (w) => ({ url: `/api/checkouts/${w.checkoutId}/stripe-payment`, payload: {} }),
  },
  // Started, not confirmed by the card holder yet: still awaiting payment.
  'POST /api/checkouts/{id}/stripe-paid': {
    expected: studentsCheckout(202),
    call: (w) => ({ url: `/api/checkouts/${w.checkoutId}/stripe-paid`, payload: {} }),
  },
  // `otherTeacher` has not confirmed being an adult.
  'POST /api/earnings/payout-setup': {
    expected: { anonymous: 401, otherStudent: 403, student: 403, otherTeacher: 403, teacher: 200 },
    call: () => ({ url: '/api/earnings/payout-setup', payload: {} }),
  },
  'GET /api/earnings/payout-setup': {
    expected: { anonymous: 401, otherStudent: 403, student: 403, otherTeacher: 404, teacher: 200 },
    call: () => ({ url: '/api/earnings/payout-setup' }),
  },
  // Stripe's own call: its signature, not a session, is what it is checked by; unsigned, it is refused for anyone.
  'POST /api/payments/stripe/webhook': {
    expected: { anonymous: 400, otherStudent: 400, student: 400, otherTeacher: 400, teacher: 400 },
    call: () => ({ url: '/api/payments/stripe/webhook', payload: { id: 'evt_1', type: 'account.updated' } }),
  },
};

/** Tables a refused request to these routes must not touch. */
const GUARDED_TABLES = ['checkouts', 'ledger_transactions', 'stripe_connected_accounts', 'stripe_events'];

describe('the routes under Stripe', () => {
  let fake: StripeFake;
  let t: TestApp;
  let defaultRoutes: Set<string>;
  let callers: Record<Exclude<Actor, 'anonymous'>, Caller>;
  let world: World;

  const routesOf = async (app: TestApp) => {
    const document = (await app.app.inject({ url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    return Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
  };

  beforeAll(async () => {
    const standard = await createTestApp();
    defaultRoutes = new Set(await routesOf(standard));
    await standard.close();
    fake = await startStripeFake();
    t = await createTestApp({
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_matrix',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_matrix',
      STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
      STRIPE_API_BASE: fake.url,
    });
    const subjectId = (await createSubject(t.db)).id;
    callers = {
      student: await signedInStudent(t),
      otherStudent: await signedInStudent(t),
      teacher: await signedInTeacher(t, [subjectId]),
      otherTeacher: await signedInTeacher(t, [subjectId]),
    };
    await t.db.update(users).set({ adultConfirmedAt: new Date() }).where(eq(users.id, callers.teacher.user.id));
    const request = await createRequest(t.db, { studentId: callers.student.user.id, subjectId });
    const bid = await createBid(t.db, { requestId: request.id, tutorId: callers.teacher.user.id });
    world = { checkoutId: (await startCheckout(t, callers.student, request.id, bid.id)).checkoutId! };
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const send = (actor: Actor, options: { method: string; url: string; payload?: object }) =>
    call(t, actor === 'anonymous' ? undefined : callers[actor], options.method, options.url, options.payload);

  it('has a row for every route only Stripe registers, and a route for every row', async () => {
    const stripeOnly = (await routesOf(t)).filter((route) => !defaultRoutes.has(route));
    expect(stripeOnly.sort()).toEqual(Object.keys(STRIPE_MATRIX).sort());
  });

  it.each(Object.entries(STRIPE_MATRIX))('%s', async (route, row) => {
    const method = route.split(' ')[0]!;
    const answered: Partial<Record<Actor, number>> = {};
    for (const actor of ACTORS) answered[actor] = (await send(actor, { method, ...row.call(world) })).statusCode;
    expect(answered).toEqual(row.expected);
  });

  it('answers hostile requests to each without a server error, writing nothing when it refuses', async () => {
    const guardedRows = async () =>
      (
        await t.db.execute<{ total: number }>(
          sql.raw(`select ${GUARDED_TABLES.map((table) => `(select count(*) from ${table})`).join(' + ')} as total`),
        )
      ).rows[0]!.total;
    const hostile = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom('', '00000000-0000-0000-0000-000000000000', "' or 1=1 --", '\u0000', 'x'.repeat(70_000)),
      fc.uuid(),
    );
    const request = fc.record({
      route: fc.constantFrom(...Object.keys(STRIPE_MATRIX)),
      actor: fc.constantFrom(...ACTORS),
      id: fc.oneof(fc.constant(world.checkoutId), hostile),
      query: fc.oneof(
        fc.constant(''),
        fc.constant('from=onboarding'),
        hostile.map((value) => `from=${value}`),
      ),
      body: fc.oneof(fc.dictionary(hostile, fc.oneof(hostile, fc.integer(), fc.constant(null))), hostile),
      signature: fc.option(hostile, { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ route, actor, id, query, body, signature }) => {
        const [method, path] = route.split(' ') as [string, string];
        const url = `${path.replace('{id}', encodeURIComponent(id.replace(/[\ud800-\udfff]/g, '\ufffd')))}?${query}`;
        const before = await guardedRows();
        const response = await t.app.inject({
          method,
          url,
          remoteAddress: freshClientAddress(),
          headers: {
            'content-type': 'application/json',
            ...(actor !== 'anonymous' && { cookie: callers[actor].cookie }),
            ...(signature !== undefined && { 'stripe-signature': signature.replace(/[^\t\x20-\x7e]/g, '') }),
          },
          ...(method === 'POST' && { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
        });
        expect(response.statusCode, `${method} ${url}\n${response.body}`).toBeLessThan(500);
        if (response.statusCode >= 400) expect(await guardedRows(), `${method} ${url} wrote`).toBe(before);
      }),
      // A twentieth of the main fuzzer's requests: five routes against its hundred and more.
      { numRuns: Math.ceil(Number(process.env.FUZZ_REQUESTS ?? 10_000) / 20) },
    );
  }, 300_000);
});
