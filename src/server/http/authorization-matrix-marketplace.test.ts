import { describeMatrix, type Row } from '../../../tests/support/authorization-matrix.ts';

const ROWS: Record<string, Row> = {
  'POST /api/requests': {
    expected: { anonymous: 401, otherStudent: 201, otherTeacher: 403, student: 201, teacher: 403 },
    call: (w) => ({
      url: '/api/requests',
      payload: {
        type: 'tutoring',
        subjectId: w.subjectId,
        description: 'Help with fractions, please',
        budgetMinCents: 800,
      },
    }),
  },
  'GET /api/requests/mine': {
    expected: { anonymous: 401, otherStudent: 200, otherTeacher: 403, student: 200, teacher: 403 },
    call: () => ({ url: '/api/requests/mine' }),
  },
  'GET /api/requests/{id}': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 403, student: 200, teacher: 403 },
    call: (w) => ({ url: `/api/requests/${w.requestId}` }),
  },
  'GET /api/requests/{id}/bids': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 403, student: 200, teacher: 403 },
    call: (w) => ({ url: `/api/requests/${w.requestId}/bids` }),
  },
  'POST /api/requests/{id}/bids/{bidId}/accept': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 403, student: 200, teacher: 403 },
    call: (w) => ({ url: `/api/requests/${w.acceptable.requestId}/bids/${w.acceptable.bidId}/accept` }),
  },
  'GET /api/requests/{id}/attachments/{index}': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 404, student: 200, teacher: 200 },
    call: (w) => ({ url: `/api/requests/${w.requestId}/attachments/0` }),
  },
  'GET /api/jobs': {
    expected: { anonymous: 401, otherStudent: 403, otherTeacher: 200, student: 403, teacher: 200 },
    call: () => ({ url: '/api/jobs' }),
  },
  'POST /api/jobs/{requestId}/bids': {
    expected: { anonymous: 401, otherStudent: 403, otherTeacher: 404, student: 403, teacher: 201 },
    call: (w) => ({ url: `/api/jobs/${w.requestId}/bids`, payload: { amountCents: 1000, message: 'Happy to help.' } }),
  },
  'POST /api/jobs/{requestId}/decline': {
    expected: { anonymous: 401, otherStudent: 403, otherTeacher: 404, student: 403, teacher: 204 },
    call: (w) => ({ url: `/api/jobs/${w.direct.waiting}/decline`, payload: { reason: 'Fully booked' } }),
  },
  'POST /api/requests/{id}/open-to-all': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 403, student: 200, teacher: 403 },
    call: (w) => ({ url: `/api/requests/${w.direct.declined}/open-to-all` }),
  },
  'POST /api/requests/{id}/complete': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 403, student: 200, teacher: 403 },
    call: (w) => ({ url: `/api/requests/${w.jobs.completable}/complete` }),
  },
  'POST /api/requests/{id}/delivered': {
    expected: { anonymous: 401, otherStudent: 403, otherTeacher: 404, student: 403, teacher: 200 },
    call: (w) => ({ url: `/api/requests/${w.jobs.delivered}/delivered` }),
  },
  'POST /api/requests/{id}/review': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 403, student: 201, teacher: 403 },
    call: (w) => ({ url: `/api/requests/${w.jobs.reviewable}/review`, payload: { rating: 5 } }),
  },
  'PATCH /api/reviews/{id}': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 403, student: 200, teacher: 403 },
    call: (w) => ({ url: `/api/reviews/${w.reviewId}`, payload: { rating: 4 } }),
  },
  'POST /api/reviews/{id}/reply': {
    expected: { anonymous: 401, otherStudent: 403, otherTeacher: 404, student: 403, teacher: 200 },
    call: (w) => ({ url: `/api/reviews/${w.reviewId}/reply`, payload: { body: 'Thank you!' } }),
  },
  'POST /api/reviews/{id}/report': {
    expected: { anonymous: 401, otherStudent: 403, otherTeacher: 404, student: 403, teacher: 200 },
    call: (w) => ({ url: `/api/reviews/${w.reviewId}/report`, payload: { reason: 'Not true' } }),
  },
};

describeMatrix('marketplace', ROWS);
