import { randomUUID } from 'node:crypto';
import { describeMatrix, signedIn, type Row } from '../../../tests/support/authorization-matrix.ts';

const ROWS: Record<string, Row> = {
  // Admin routes: no actor here has an admin role (admins and sub-admins are covered in features/admin).
  'GET /api/admin/me': { expected: signedIn(403), call: () => ({ url: '/api/admin/me' }) },
  'GET /api/admin/stats': { expected: signedIn(403), call: () => ({ url: '/api/admin/stats' }) },
  'GET /api/admin/account-deletions': {
    expected: signedIn(403),
    call: () => ({ url: '/api/admin/account-deletions' }),
  },
  'GET /api/admin/reports': { expected: signedIn(403), call: () => ({ url: '/api/admin/reports' }) },
  'POST /api/admin/reports/{id}/decision': {
    expected: signedIn(403),
    call: () => ({ url: `/api/admin/reports/${randomUUID()}/decision`, payload: { status: 'resolved', note: 'Ok' } }),
  },
  'GET /api/admin/flags': { expected: signedIn(403), call: () => ({ url: '/api/admin/flags' }) },
  'GET /api/admin/flags/repeated-senders': {
    expected: signedIn(403),
    call: () => ({ url: '/api/admin/flags/repeated-senders' }),
  },
  'POST /api/admin/flags/{id}/decision': {
    expected: signedIn(403),
    call: () => ({ url: `/api/admin/flags/${randomUUID()}/decision`, payload: { status: 'reviewed', note: 'Ok' } }),
  },
  'GET /api/admin/meetings/stats': { expected: signedIn(403), call: () => ({ url: '/api/admin/meetings/stats' }) },
  'GET /api/admin/sub-admins': { expected: signedIn(403), call: () => ({ url: '/api/admin/sub-admins' }) },
  'POST /api/admin/sub-admins': {
    expected: signedIn(403),
    call: (w) => ({ url: '/api/admin/sub-admins', payload: { account: w.outsiderId, permissions: ['reports'] } }),
  },
  'PUT /api/admin/sub-admins/{userId}': {
    expected: signedIn(403),
    call: (w) => ({ url: `/api/admin/sub-admins/${w.outsiderId}`, payload: { permissions: ['reports'] } }),
  },
  'DELETE /api/admin/sub-admins/{userId}': {
    expected: signedIn(403),
    call: (w) => ({ url: `/api/admin/sub-admins/${w.outsiderId}` }),
  },
  'GET /api/admin/users/{userId}': {
    expected: signedIn(403),
    call: (w) => ({ url: `/api/admin/users/${w.outsiderId}` }),
  },
  'POST /api/admin/users/{userId}/suspension': {
    expected: signedIn(403),
    call: (w) => ({ url: `/api/admin/users/${w.outsiderId}/suspension`, payload: { reason: 'Spam' } }),
  },
  'POST /api/admin/users/{userId}/reinstatement': {
    expected: signedIn(403),
    call: (w) => ({ url: `/api/admin/users/${w.outsiderId}/reinstatement`, payload: { reason: 'Sorry' } }),
  },
  'GET /api/admin/patterns': { expected: signedIn(403), call: () => ({ url: '/api/admin/patterns' }) },
  'POST /api/admin/patterns': {
    expected: signedIn(403),
    call: () => ({ url: '/api/admin/patterns', payload: { pattern: 'zorgle', category: 'other', sample: 'zorgle' } }),
  },
  'PATCH /api/admin/patterns/{id}': {
    expected: signedIn(403),
    call: () => ({ method: 'PATCH', url: `/api/admin/patterns/${randomUUID()}`, payload: { isActive: false } }),
  },
  'GET /api/admin/contact-messages': {
    expected: signedIn(403),
    call: () => ({ url: '/api/admin/contact-messages' }),
  },
  'POST /api/admin/contact-messages/{id}/handled': {
    expected: signedIn(403),
    call: () => ({ url: `/api/admin/contact-messages/${randomUUID()}/handled`, payload: { handled: true } }),
  },
  'GET /api/admin/audit-log': { expected: signedIn(403), call: () => ({ url: '/api/admin/audit-log' }) },
  'GET /api/admin/payments/ledger': {
    expected: signedIn(403),
    call: (w) => ({ url: `/api/admin/payments/ledger?q=${w.requestId}` }),
  },
  'GET /api/admin/payments/transfers': {
    expected: signedIn(403),
    call: () => ({ url: '/api/admin/payments/transfers' }),
  },
  'POST /api/admin/payments/transfers/{id}/paid': {
    expected: signedIn(403),
    call: () => ({ url: `/api/admin/payments/transfers/${randomUUID()}/paid`, payload: { note: 'Ref' } }),
  },
  'GET /api/admin/payments/payouts': {
    expected: signedIn(403),
    call: () => ({ url: '/api/admin/payments/payouts' }),
  },
  'POST /api/admin/payments/payouts/{id}/paid': {
    expected: signedIn(403),
    call: () => ({ url: `/api/admin/payments/payouts/${randomUUID()}/paid`, payload: { note: 'Ref' } }),
  },
  'GET /api/admin/payments/reconciliation': {
    expected: signedIn(403),
    call: () => ({ url: '/api/admin/payments/reconciliation' }),
  },
  'GET /api/admin/payments/ledger.csv': {
    expected: signedIn(403),
    call: (w) => ({ url: `/api/admin/payments/ledger.csv?q=${w.requestId}` }),
  },
  'GET /api/admin/payments/failed-transfers': {
    expected: signedIn(403),
    call: () => ({ url: '/api/admin/payments/failed-transfers' }),
  },
  'POST /api/admin/payments/failed-transfers/{id}/retry': {
    expected: signedIn(403),
    call: () => ({ url: `/api/admin/payments/failed-transfers/${randomUUID()}/retry` }),
  },
  'POST /api/admin/payments/jobs/{requestId}/adjustment': {
    expected: signedIn(403),
    call: (w) => ({
      url: `/api/admin/payments/jobs/${w.jobs.reviewable}/adjustment`,
      payload: { amountCents: 100, note: 'A session was missed.' },
    }),
  },
  'GET /api/admin/payments/disputes': {
    expected: signedIn(403),
    call: () => ({ url: '/api/admin/payments/disputes' }),
  },
  'GET /api/admin/payments/disputes/{refundRequestId}': {
    expected: signedIn(403),
    call: () => ({ url: `/api/admin/payments/disputes/${randomUUID()}` }),
  },
  'POST /api/admin/payments/disputes/{refundRequestId}/decision': {
    expected: signedIn(403),
    call: () => ({
      url: `/api/admin/payments/disputes/${randomUUID()}/decision`,
      payload: { outcome: 'none', note: 'Ok' },
    }),
  },
  'GET /api/admin/reviews': { expected: signedIn(403), call: () => ({ url: '/api/admin/reviews' }) },
  'POST /api/admin/reviews/{id}/hide': {
    expected: signedIn(403),
    call: (w) => ({ url: `/api/admin/reviews/${w.reviewId}/hide`, payload: { note: 'Unfair' } }),
  },
  'GET /api/admin/reviews/to-look-at': {
    expected: signedIn(403),
    call: () => ({ url: '/api/admin/reviews/to-look-at' }),
  },
  'POST /api/admin/reviews/{id}/looked-at': {
    expected: signedIn(403),
    call: (w) => ({ url: `/api/admin/reviews/${w.reviewId}/looked-at` }),
  },
};

describeMatrix('admin', ROWS);
