import { randomUUID } from 'node:crypto';
import { describeMatrix, signedIn, type Row } from '../../../tests/support/authorization-matrix.ts';
import { TEST_CARD } from '../../../tests/support/checkout.ts';

const ROWS: Record<string, Row> = {
  'GET /api/checkouts/{id}': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 403, student: 200, teacher: 403 },
    call: (w) => ({ url: `/api/checkouts/${w.checkouts.viewed}` }),
  },
  'POST /api/checkouts/{id}/pay': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 403, student: 200, teacher: 403 },
    call: (w) => ({ url: `/api/checkouts/${w.checkouts.payable}/pay`, payload: { card: TEST_CARD } }),
  },
  'POST /api/checkouts/{id}/cancel': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 403, student: 200, teacher: 403 },
    call: (w) => ({ url: `/api/checkouts/${w.checkouts.cancellable}/cancel`, method: 'POST' }),
  },
  'GET /api/payments': {
    expected: { anonymous: 401, otherStudent: 200, otherTeacher: 403, student: 200, teacher: 403 },
    call: () => ({ url: '/api/payments' }),
  },
  'GET /api/payments/{id}/receipt': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 403, student: 200, teacher: 403 },
    call: (w) => ({ url: `/api/payments/${w.paidCheckoutId}/receipt` }),
  },
  'GET /api/earnings': {
    expected: { anonymous: 401, otherStudent: 403, otherTeacher: 200, student: 403, teacher: 200 },
    call: () => ({ url: '/api/earnings' }),
  },
  // Before the payout row: confirmed, `teacher` is paid the released money of the world's completed jobs, and
  // `otherTeacher`, with nothing earned, is refused for that, not for their age.
  'POST /api/earnings/adult-confirmation': {
    expected: { anonymous: 401, otherStudent: 403, otherTeacher: 200, student: 403, teacher: 200 },
    call: () => ({ url: '/api/earnings/adult-confirmation', payload: { confirmed: true } }),
  },
  'POST /api/earnings/payouts': {
    expected: { anonymous: 401, otherStudent: 403, otherTeacher: 409, student: 403, teacher: 200 },
    call: () => ({ url: '/api/earnings/payouts', headers: { 'idempotency-key': randomUUID() }, payload: {} }),
  },
  // A job accepted without a payment: its people may look, and are told there is nothing to refund.
  'GET /api/refunds/jobs/{requestId}': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 404, student: 200, teacher: 200 },
    call: (w) => ({ url: `/api/refunds/jobs/${w.jobs.unpaid}` }),
  },
  'POST /api/refunds/jobs/{requestId}': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 403, student: 409, teacher: 403 },
    call: (w) => ({ url: `/api/refunds/jobs/${w.jobs.unpaid}`, payload: { reason: 'missed_deadline' } }),
  },
  'POST /api/refunds/jobs/{requestId}/withdraw': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 404, student: 403, teacher: 409 },
    call: (w) => ({ url: `/api/refunds/jobs/${w.jobs.unpaid}/withdraw`, payload: {} }),
  },
  'POST /api/refunds/jobs/{requestId}/cancellation': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 404, student: 409, teacher: 409 },
    call: (w) => ({ url: `/api/refunds/jobs/${w.jobs.unpaid}/cancellation`, payload: {} }),
  },
  'POST /api/refunds/requests/{refundRequestId}/answer': {
    expected: signedIn(404),
    call: () => ({ url: `/api/refunds/requests/${randomUUID()}/answer`, payload: { answer: 'accept' } }),
  },
  'POST /api/refunds/requests/{refundRequestId}/cancellation': {
    expected: signedIn(404),
    call: () => ({ url: `/api/refunds/requests/${randomUUID()}/cancellation`, payload: { agree: true } }),
  },
};

describeMatrix('payments', ROWS);
