import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PERMISSIONS, SUPER_ADMIN_ROLE } from '#shared/constants.ts';
import { randomUUID } from 'node:crypto';
import { illegalContentFlags, moderationPatterns, userReports } from '../../db/schema/moderation.ts';
import { contactMessages } from '../../db/schema/pages.ts';
import {
  createReviewedJob,
  createSessionCookie,
  createSubAdmin,
  createSuperAdminCookie,
  createUser,
} from '../../../../tests/support/factories.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { createCheckout, createRequestedPayout } from '../../../../tests/support/checkout.ts';
import type { AdminArea } from './service.ts';

// Every admin route × every kind of caller: signed out 401; students, teachers and sub-admins without the route's
// permission 403 (a sub-admin with every other permission, so only the one that matters is missing); the right admin
// succeeds. A new admin route without a row fails the first test.

type Row = {
  area: AdminArea | 'any';
  /** The success status of the right admin. */
  ok: number;
  call: () => Promise<InjectOptions> | InjectOptions;
};

describe('every admin route checks the caller’s admin permission', () => {
  let t: TestApp;
  let rows: Record<string, Row>;
  beforeAll(async () => {
    t = await createTestApp();
    const [reporter, reported] = [await createUser(t.db), await createUser(t.db)];
    const pendingReport = async () =>
      (
        await t.db
          .insert(userReports)
          .values({ reporterId: reporter.id, reportedUserId: reported.id, reason: 'spam', description: 'Ads' })
          .returning()
      )[0]!.id;
    const pendingFlag = async () =>
      (
        await t.db
          .insert(illegalContentFlags)
          .values({ flagType: 'phone', content: '555', senderId: reporter.id })
          .returning()
      )[0]!.id;
    rows = {
      'GET /api/admin/me': { area: 'any', ok: 200, call: () => ({ url: '/api/admin/me' }) },
      'GET /api/admin/stats': { area: 'dashboard', ok: 200, call: () => ({ url: '/api/admin/stats' }) },
      'GET /api/admin/reports': { area: 'reports', ok: 200, call: () => ({ url: '/api/admin/reports' }) },
      'POST /api/admin/reports/{id}/decision': {
        area: 'reports',
        ok: 200,
        call: async () => ({
          url: `/api/admin/reports/${await pendingReport()}/decision`,
          payload: { status: 'resolved', note: 'Warned' },
        }),
      },
      'GET /api/admin/reviews': { area: 'reports', ok: 200, call: () => ({ url: '/api/admin/reviews' }) },
      'POST /api/admin/reviews/{id}/hide': {
        area: 'reports',
        ok: 200,
        call: async () => ({
          url: `/api/admin/reviews/${(await createReviewedJob(t.db)).review.id}/hide`,
          payload: { note: 'Unfair' },
        }),
      },
      'GET /api/admin/reviews/to-look-at': {
        area: 'reports',
        ok: 200,
        call: () => ({ url: '/api/admin/reviews/to-look-at' }),
      },
      'POST /api/admin/reviews/{id}/looked-at': {
        area: 'reports',
        ok: 200,
        call: async () => {
          const { review } = await createReviewedJob(t.db, { toLookAt: true });
          return { url: `/api/admin/reviews/${review.id}/looked-at` };
        },
      },
      'GET /api/admin/flags': { area: 'content', ok: 200, call: () => ({ url: '/api/admin/flags' }) },
      'GET /api/admin/flags/repeated-senders': {
        area: 'content',
        ok: 200,
        call: () => ({ url: '/api/admin/flags/repeated-senders' }),
      },
      'POST /api/admin/flags/{id}/decision': {
        area: 'content',
        ok: 200,
        call: async () => ({
          url: `/api/admin/flags/${await pendingFlag()}/decision`,
          payload: { status: 'reviewed', note: 'A phone number' },
        }),
      },
      'GET /api/admin/meetings/stats': {
        area: 'meetings',
        ok: 200,
        call: () => ({ url: '/api/admin/meetings/stats' }),
      },
      'GET /api/admin/sub-admins': { area: SUPER_ADMIN_ROLE, ok: 200, call: () => ({ url: '/api/admin/sub-admins' }) },
      'POST /api/admin/sub-admins': {
        area: SUPER_ADMIN_ROLE,
        ok: 201,
        call: async () => ({
          url: '/api/admin/sub-admins',
          payload: { account: (await createUser(t.db)).email, permissions: ['reports'] },
        }),
      },
      'PUT /api/admin/sub-admins/{userId}': {
        area: SUPER_ADMIN_ROLE,
        ok: 200,
        call: async () => ({
          url: `/api/admin/sub-admins/${(await createSubAdmin(t.db, ['reports'])).id}`,
          payload: { permissions: ['content'] },
        }),
      },
      'DELETE /api/admin/sub-admins/{userId}': {
        area: SUPER_ADMIN_ROLE,
        ok: 204,
        call: async () => ({ url: `/api/admin/sub-admins/${(await createSubAdmin(t.db, ['reports'])).id}` }),
      },
      'GET /api/admin/users/{userId}': {
        area: 'users',
        ok: 200,
        call: () => ({ url: `/api/admin/users/${reported.id}` }),
      },
      'POST /api/admin/users/{userId}/suspension': {
        area: 'users',
        ok: 200,
        call: async () => ({
          url: `/api/admin/users/${(await createUser(t.db)).id}/suspension`,
          payload: { reason: 'Spam' },
        }),
      },
      'POST /api/admin/users/{userId}/reinstatement': {
        area: 'users',
        ok: 200,
        call: async () => ({
          url: `/api/admin/users/${(await createUser(t.db, { suspendedAt: new Date(), suspensionReason: 'Spam' })).id}/reinstatement`,
          payload: { reason: 'Sorry' },
        }),
      },
      'GET /api/admin/account-deletions': {
        area: 'users',
        ok: 200,
        call: () => ({ url: '/api/admin/account-deletions' }),
      },
      'GET /api/admin/patterns': { area: 'patterns', ok: 200, call: () => ({ url: '/api/admin/patterns' }) },
      'POST /api/admin/patterns': {
        area: 'patterns',
        ok: 201,
        call: () => {
          const word = `word${randomUUID().slice(0, 8)}`;
          return { url: '/api/admin/patterns', payload: { pattern: word, category: 'other', sample: word } };
        },
      },
      'PATCH /api/admin/patterns/{id}': {
        area: 'patterns',
        ok: 200,
        call: async () => {
          const [pattern] = await t.db
            .insert(moderationPatterns)
            .values({ pattern: `word${randomUUID()}`, category: 'other' })
            .returning();
          return { url: `/api/admin/patterns/${pattern!.id}`, payload: { isActive: false } };
        },
      },
      'GET /api/admin/contact-messages': {
        area: 'messages',
        ok: 200,
        call: () => ({ url: '/api/admin/contact-messages' }),
      },
      'POST /api/admin/contact-messages/{id}/handled': {
        area: 'messages',
        ok: 200,
        call: async () => {
          const [message] = await t.db
            .insert(contactMessages)
            .values({ name: 'Ada', email: 'ada@example.com', subject: 'Hi', message: 'Hello' })
            .returning();
          return { url: `/api/admin/contact-messages/${message!.id}/handled`, payload: { handled: true } };
        },
      },
      'GET /api/admin/audit-log': { area: SUPER_ADMIN_ROLE, ok: 200, call: () => ({ url: '/api/admin/audit-log' }) },
      'GET /api/admin/payments/ledger': {
        area: 'payments',
        ok: 200,
        call: () => ({ url: `/api/admin/payments/ledger?q=${encodeURIComponent(reported.email)}` }),
      },
      'GET /api/admin/payments/transfers': {
        area: 'payments',
        ok: 200,
        call: () => ({ url: '/api/admin/payments/transfers' }),
      },
      'POST /api/admin/payments/transfers/{id}/paid': {
        area: 'payments',
        ok: 204,
        call: async () => ({
          url: `/api/admin/payments/transfers/${(await createCheckout(t.db, { provider: 'manual' })).id}/paid`,
          payload: { note: 'Bank ref 1' },
        }),
      },
      'GET /api/admin/payments/payouts': {
        area: 'payments',
        ok: 200,
        call: () => ({ url: '/api/admin/payments/payouts' }),
      },
      'POST /api/admin/payments/payouts/{id}/paid': {
        area: 'payments',
        ok: 204,
        call: async () => ({
          url: `/api/admin/payments/payouts/${(await createRequestedPayout(t.db)).payout.id}/paid`,
          payload: { note: 'Bank ref 2' },
        }),
      },
      'GET /api/admin/payments/reconciliation': {
        area: 'payments',
        ok: 200,
        call: () => ({ url: '/api/admin/payments/reconciliation' }),
      },
      'GET /api/admin/payments/ledger.csv': {
        area: 'payments',
        ok: 200,
        call: () => ({ url: `/api/admin/payments/ledger.csv?q=${reported.vhNumber}` }),
      },
      'GET /api/admin/payments/disputes': {
        area: 'payments',
        ok: 200,
        call: () => ({ url: '/api/admin/payments/disputes' }),
      },
      'GET /api/admin/payments/failed-transfers': {
        area: 'payments',
        ok: 200,
        call: () => ({ url: '/api/admin/payments/failed-transfers' }),
      },
      // Past the guard, an unknown transfer is not found.
      'POST /api/admin/payments/failed-transfers/{id}/retry': {
        area: 'payments',
        ok: 404,
        call: () => ({ url: `/api/admin/payments/failed-transfers/${randomUUID()}/retry` }),
      },
      // Past the guard, an unknown job is not found.
      'POST /api/admin/payments/jobs/{requestId}/adjustment': {
        area: 'payments',
        ok: 404,
        call: () => ({
          url: `/api/admin/payments/jobs/${randomUUID()}/adjustment`,
          payload: { amountCents: 100, note: 'A session was missed.' },
        }),
      },
      // Past the guard, an unknown request is not found.
      'GET /api/admin/payments/disputes/{refundRequestId}': {
        area: 'payments',
        ok: 404,
        call: () => ({ url: `/api/admin/payments/disputes/${randomUUID()}` }),
      },
      'POST /api/admin/payments/disputes/{refundRequestId}/decision': {
        area: 'payments',
        ok: 404,
        call: () => ({
          url: `/api/admin/payments/disputes/${randomUUID()}/decision`,
          payload: { outcome: 'none', note: 'Nothing was missed.' },
        }),
      },
    };
  });
  afterAll(() => t.close());

  const send = async (route: string, options: InjectOptions, cookie?: string) =>
    t.app.inject({
      method: route.split(' ')[0],
      ...options,
      headers: cookie ? { cookie } : {},
    });
  const cookieOf = async (user: { id: string }) => (await createSessionCookie(t.db, user.id)).header;

  it('has a row for every admin route', async () => {
    const document = (await t.app.inject({ url: '/api/openapi.json' })).json<{ paths: Record<string, object> }>();
    const routes = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/api/admin'))
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    expect(routes.sort()).toEqual(Object.keys(rows).sort());
  });

  it.each(['student', 'teacher'] as const)('refuses a %s every admin route', async (role) => {
    const cookie = await cookieOf(await createUser(t.db, { role }));
    for (const [route, row] of Object.entries(rows)) {
      const response = await send(route, await row.call(), cookie);
      expect(response.statusCode, route).toBe(403);
    }
  });

  it('answers every admin route 401 without a session', async () => {
    for (const [route, row] of Object.entries(rows)) {
      expect((await send(route, await row.call())).statusCode, route).toBe(401);
    }
  });

  it('refuses a sub-admin lacking the route’s permission, and lets the right admin in', async () => {
    for (const [route, row] of Object.entries(rows)) {
      if (row.area !== 'any') {
        const others = ADMIN_PERMISSIONS.filter((permission) => permission !== row.area);
        const lacking = await send(route, await row.call(), await cookieOf(await createSubAdmin(t.db, others)));
        expect(lacking.statusCode, route).toBe(403);
      }
      const right =
        row.area === SUPER_ADMIN_ROLE
          ? (await createSuperAdminCookie(t.db)).header
          : await cookieOf(await createSubAdmin(t.db, row.area === 'any' ? [] : [row.area]));
      const response = await send(route, await row.call(), right);
      expect(response.statusCode, `${route}: ${response.body}`).toBe(row.ok);
    }
  });

  it('lets the super-admin use every route', async () => {
    const { header } = await createSuperAdminCookie(t.db);
    for (const [route, row] of Object.entries(rows)) {
      const response = await send(route, await row.call(), header);
      expect(response.statusCode, `${route}: ${response.body}`).toBe(row.ok);
    }
  });

  it('keeps a removed sub-admin out from the next call', async () => {
    const subAdmin = await createSubAdmin(t.db, ['reports']);
    const cookie = await cookieOf(subAdmin);
    expect((await send('GET x', { url: '/api/admin/reports' }, cookie)).statusCode).toBe(200);
    const { header } = await createSuperAdminCookie(t.db);
    expect((await send('DELETE x', { url: `/api/admin/sub-admins/${subAdmin.id}` }, header)).statusCode).toBe(204);
    expect((await send('GET x', { url: '/api/admin/reports' }, cookie)).statusCode).toBe(403);
  });
});
