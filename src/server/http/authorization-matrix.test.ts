import { randomBytes, randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teacherNotifications } from '../db/schema/notifications.ts';
import { tutorBids, tutoringRequests } from '../db/schema/requests.ts';
import {
  DEFAULT_TEST_PASSWORD,
  createRequest,
  createSessionCookie,
  createSubject,
  createTeacher,
  createUser,
  freshClientAddress,
} from '../../../tests/support/factories.ts';
import { formData, TINY_PNG } from '../../../tests/support/files.ts';
import { signIn, type Caller } from '../../../tests/support/callers.ts';
import { TEST_CARD } from '../../../tests/support/checkout.ts';
import { createTestApp, type TestApp } from '../../../tests/support/test-app.ts';
import { fromNow, HOUR_MS, MINUTE_MS } from '../../../tests/support/time.ts';

// Every route of the OpenAPI document × every kind of caller, with the status each must get. A route added without
// a row here fails the first test. The owners come last in each row, so a success that changes state (accepting a
// bid, reading a notification) cannot hide a refusal of someone else.

const ACTORS = ['anonymous', 'otherStudent', 'otherTeacher', 'student', 'teacher'] as const;
type Actor = (typeof ACTORS)[number];

/**
 * The world the matrix runs in: `student` owns a request in `teacher`'s subject (with a file), has a bid on it from
 * a third teacher, and a chat room with `teacher` holding a file. `otherTeacher` teaches another subject.
 */
type World = {
  callers: Record<Exclude<Actor, 'anonymous'>, Caller>;
  subjectId: string;
  otherSubjectId: string;
  outsiderId: string;
  /** Someone only the room-opening row talks to, so that its first room is new whichever row ran before. */
  newPartnerId: string;
  requestId: string;
  /** A second request of `student` with a bid, for the acceptance (which closes it to other bids). */
  acceptable: { requestId: string; bidId: string };
  roomId: string;
  messageId: string;
  /** A meeting `teacher` scheduled in the room (cancelled by the teacher's row, which comes last). */
  meetingId: string;
  /** A meeting of the same room starting in 5 minutes, which its participants can join. */
  startingMeetingId: string;
  notificationId: string;
  avatarName: string;
  /**
   * Jobs of `student` with `teacher` as the tutor: accepted (two), completed, and completed with a review, each paid;
   * and one accepted before payments existed (no checkout).
   */
  jobs: { delivered: string; completable: string; reviewable: string; unpaid: string };
  reviewId: string;
  /** Checkouts of `student`'s offers from `teacher`, awaiting payment: one to look at, one to pay, one to cancel. */
  checkouts: { viewed: string; payable: string; cancellable: string };
  /** The paid checkout of `student`'s reviewed job, whose receipt is theirs alone. */
  paidCheckoutId: string;
  /** A second signed-in device of `student`, which only they can sign out. */
  studentOtherSessionId: string;
  /** A push subscription of `student`'s device. */
  pushSubscriptionId: string;
  /** A ready data export of `student`, which only they can download. */
  studentExportId: string;
};

type Row = {
  /** The status each actor gets. */
  expected: Record<Actor, number>;
  /** A well-formed call (so that the answer is about who calls, not about the input). */
  call: (world: World, actor: Actor) => InjectOptions;
};

const everyone = (status: number): Record<Actor, number> => ({
  anonymous: status,
  otherStudent: status,
  otherTeacher: status,
  student: status,
  teacher: status,
});
const signedIn = (status: number): Record<Actor, number> => ({ ...everyone(status), anonymous: 401 });
/** A browser's push subscription at a public address (a literal one: no name to resolve). */
const pushSubscriptionBody = () => ({
  endpoint: `https://8.8.8.8/push/${randomUUID()}`,
  keys: { p256dh: randomBytes(65).toString('base64url'), auth: randomBytes(16).toString('base64url') },
});
const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');

const MATRIX: Record<string, Row> = {
  'GET /api/health': { expected: everyone(200), call: () => ({ url: '/api/health' }) },
  'GET /livez': { expected: everyone(200), call: () => ({ url: '/livez' }) },
  'GET /readyz': { expected: everyone(200), call: () => ({ url: '/readyz' }) },
  'GET /api/settings/public': { expected: everyone(200), call: () => ({ url: '/api/settings/public' }) },
  'POST /api/contact': {
    expected: everyone(201),
    call: () => ({
      url: '/api/contact',
      payload: { name: 'Ada', email: 'ada@example.com', subject: 'Hello', message: 'A question' },
    }),
  },
  'GET /api/accounts/availability': {
    expected: everyone(200),
    call: () => ({ url: '/api/accounts/availability?username=somebody' }),
  },
  'POST /api/accounts/register': {
    expected: everyone(201),
    call: () => {
      const name = `new${randomUUID().slice(0, 8)}`;
      return {
        url: '/api/accounts/register',
        payload: { name, email: `${name}@example.com`, password: 'secret1', acceptTerms: true, acceptPrivacy: true },
      };
    },
  },
  'GET /api/subjects': { expected: everyone(200), call: () => ({ url: '/api/subjects' }) },
  'GET /api/guru/messages': {
    expected: { anonymous: 401, otherStudent: 200, otherTeacher: 403, student: 200, teacher: 403 },
    call: () => ({ url: '/api/guru/messages' }),
  },
  'DELETE /api/guru/messages': {
    expected: { anonymous: 401, otherStudent: 204, otherTeacher: 403, student: 204, teacher: 403 },
    call: () => ({ method: 'DELETE', url: '/api/guru/messages' }),
  },
  'GET /api/profile': { expected: signedIn(200), call: () => ({ url: '/api/profile' }) },
  'GET /api/account/devices': { expected: signedIn(200), call: () => ({ url: '/api/account/devices' }) },
  'GET /api/push/public-key': { expected: signedIn(200), call: () => ({ url: '/api/push/public-key' }) },
  'POST /api/push/subscriptions': {
    expected: signedIn(201),
    call: () => ({ url: '/api/push/subscriptions', payload: pushSubscriptionBody() }),
  },
  'DELETE /api/push/subscriptions/{id}': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 404, student: 204, teacher: 404 },
    call: (w) => ({ method: 'DELETE', url: `/api/push/subscriptions/${w.pushSubscriptionId}` }),
  },
  // Before the row that signs out every other device, which would end this session first.
  'DELETE /api/account/devices/{sessionId}': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 404, student: 204, teacher: 404 },
    call: (w) => ({ method: 'DELETE', url: `/api/account/devices/${w.studentOtherSessionId}` }),
  },
  'POST /api/account/devices/sign-out-others': {
    expected: signedIn(200),
    call: () => ({ url: '/api/account/devices/sign-out-others' }),
  },
  'POST /api/account/email': {
    expected: signedIn(202),
    call: () => ({
      url: '/api/account/email',
      payload: { newEmail: `moved${randomUUID().slice(0, 8)}@example.com`, password: DEFAULT_TEST_PASSWORD },
    }),
  },
  'POST /api/account/exports': {
    // The owner's export is built in the background; the teacher's comes after the student's in the row.
    expected: signedIn(202),
    call: () => ({ url: '/api/account/exports' }),
  },
  'GET /api/account/exports/latest': { expected: signedIn(200), call: () => ({ url: '/api/account/exports/latest' }) },
  'GET /api/account/exports/{exportId}/download': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 404, student: 200, teacher: 404 },
    call: (w) => ({ url: `/api/account/exports/${w.studentExportId}/download` }),
  },
  'GET /api/search/students': {
    expected: { anonymous: 401, otherStudent: 403, otherTeacher: 200, student: 403, teacher: 200 },
    call: () => ({ url: '/api/search/students?vh=123' }),
  },
  'GET /api/search/experts': { expected: signedIn(200), call: () => ({ url: '/api/search/experts?vh=123' }) },
  'GET /api/reports/targets/{userId}': {
    expected: signedIn(200),
    call: (w) => ({ url: `/api/reports/targets/${w.outsiderId}` }),
  },
  'POST /api/reports': {
    expected: signedIn(201),
    call: (w) => ({
      url: '/api/reports',
      payload: { reportedUserId: w.outsiderId, reason: 'spam', description: 'Ads' },
    }),
  },
  // Admin routes: no actor here has an admin role (admins and sub-admins are covered in features/admin).
  'GET /api/admin/me': { expected: signedIn(403), call: () => ({ url: '/api/admin/me' }) },
  'GET /api/admin/stats': { expected: signedIn(403), call: () => ({ url: '/api/admin/stats' }) },
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
  'POST /api/profile/avatar': {
    expected: signedIn(200),
    call: () => ({
      url: '/api/profile/avatar',
      payload: formData({}, { field: 'avatar', bytes: TINY_PNG, filename: 'me.png', type: 'image/png' }),
    }),
  },
  'PUT /api/profile/specializations': {
    expected: { anonymous: 401, otherStudent: 403, otherTeacher: 200, student: 403, teacher: 200 },
    // Each teacher keeps the subjects it has, so the rest of the matrix sees the world it expects.
    call: (w, actor) => ({
      method: 'PUT',
      url: '/api/profile/specializations',
      payload: { subjectIds: [actor === 'teacher' ? w.subjectId : w.otherSubjectId] },
    }),
  },
  'GET /api/files/avatars/{name}': {
    expected: everyone(200),
    call: (w) => ({ url: `/api/files/avatars/${w.avatarName}` }),
  },
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
  'GET /api/notifications': { expected: signedIn(200), call: () => ({ url: '/api/notifications' }) },
  'POST /api/notifications/{id}/read': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 404, student: 404, teacher: 204 },
    call: (w) => ({ url: `/api/notifications/${w.notificationId}/read` }),
  },
  'POST /api/notifications/read-all': { expected: signedIn(200), call: () => ({ url: '/api/notifications/read-all' }) },
  'POST /api/requests/{id}/complete': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 403, student: 200, teacher: 403 },
    call: (w) => ({ url: `/api/requests/${w.jobs.completable}/complete` }),
  },
  'POST /api/requests/{id}/delivered': {
    expected: { anonymous: 401, otherStudent: 403, otherTeacher: 404, student: 403, teacher: 200 },
    call: (w) => ({ url: `/api/requests/${w.jobs.delivered}/delivered` }),
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
  'GET /api/tutors': { expected: everyone(200), call: () => ({ url: '/api/tutors?sort=rating&minRating=4' }) },
  'GET /api/tutors/{id}': {
    expected: signedIn(200),
    call: (w) => ({ url: `/api/tutors/${w.callers.teacher.user.id}` }),
  },
  'GET /api/tutors/{id}/reviews': {
    expected: signedIn(200),
    call: (w) => ({ url: `/api/tutors/${w.callers.teacher.user.id}/reviews` }),
  },
  'GET /api/shared-jobs/{userId}': {
    expected: signedIn(200),
    call: (w) => ({ url: `/api/shared-jobs/${w.callers.teacher.user.id}` }),
  },
  'PUT /api/profile/about': {
    expected: { anonymous: 401, otherStudent: 403, otherTeacher: 200, student: 403, teacher: 200 },
    call: () => ({ url: '/api/profile/about', payload: { headline: 'Calm help', about: null } }),
  },
  'PUT /api/profile/listing': {
    expected: { anonymous: 401, otherStudent: 403, otherTeacher: 200, student: 403, teacher: 200 },
    call: () => ({ url: '/api/profile/listing', payload: { hourlyRateCents: 1000, isVisibleToVisitors: true } }),
  },
  'GET /api/chat/rooms': { expected: signedIn(200), call: () => ({ url: '/api/chat/rooms' }) },
  'POST /api/chat/rooms': {
    expected: signedIn(201),
    call: (w) => ({ url: '/api/chat/rooms', payload: { partnerId: w.newPartnerId } }),
  },
  'GET /api/chat/rooms/{roomId}/messages': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 404, student: 200, teacher: 200 },
    call: (w) => ({ url: `/api/chat/rooms/${w.roomId}/messages` }),
  },
  'POST /api/chat/messages': {
    expected: signedIn(201),
    call: (w) => ({
      url: '/api/chat/messages',
      payload: { clientId: randomUUID(), receiverId: w.outsiderId, content: 'Hello there' },
    }),
  },
  'POST /api/chat/rooms/{roomId}/delivered': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 404, student: 200, teacher: 200 },
    call: (w) => ({ url: `/api/chat/rooms/${w.roomId}/delivered` }),
  },
  'POST /api/chat/rooms/{roomId}/read': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 404, student: 200, teacher: 200 },
    call: (w) => ({ url: `/api/chat/rooms/${w.roomId}/read` }),
  },
  'POST /api/chat/uploads': {
    expected: signedIn(201),
    call: () => ({
      url: '/api/chat/uploads',
      payload: formData({}, { field: 'file', bytes: TINY_PNG, filename: 'graph.png', type: 'image/png' }),
    }),
  },
  'GET /api/chat/files/{messageId}': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 404, student: 200, teacher: 200 },
    call: (w) => ({ url: `/api/chat/files/${w.messageId}` }),
  },
  'POST /api/chat/rooms/{roomId}/meetings': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 404, student: 403, teacher: 201 },
    call: (w) => ({
      url: `/api/chat/rooms/${w.roomId}/meetings`,
      payload: { title: 'Fractions', startTime: fromNow(HOUR_MS).toISOString() },
    }),
  },
  'GET /api/chat/meetings/{meetingId}': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 404, student: 200, teacher: 200 },
    call: (w) => ({ url: `/api/chat/meetings/${w.meetingId}` }),
  },
  'POST /api/chat/meetings/{meetingId}/cancel': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 404, student: 403, teacher: 200 },
    call: (w) => ({ url: `/api/chat/meetings/${w.meetingId}/cancel`, payload: {} }),
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
  'POST /api/chat/meetings/{meetingId}/join': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 404, student: 201, teacher: 201 },
    call: (w) => ({ url: `/api/chat/meetings/${w.startingMeetingId}/join`, payload: {} }),
  },
  'GET /api/chat/rooms/{roomId}': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 404, student: 200, teacher: 200 },
    call: (w) => ({ url: `/api/chat/rooms/${w.roomId}` }),
  },
};

describe('the authorization matrix', () => {
  let t: TestApp;
  let world: World;

  const send = (caller: Caller | undefined, options: InjectOptions) =>
    t.app.inject({
      method: options.payload ? 'POST' : 'GET',
      remoteAddress: freshClientAddress(),
      ...options,
      headers: { ...options.headers, ...(caller ? { cookie: caller.cookie } : {}) },
    });
  const ok = async (response: Awaited<ReturnType<typeof send>>) => {
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json();
  };

  /** Asks for the caller's data export and waits until the app's worker has built it. */
  const readyExportOf = async (caller: Caller) => {
    await ok(await send(caller, { method: 'POST', url: '/api/account/exports' }));
    for (;;) {
      const { export: latest } = await ok(await send(caller, { method: 'GET', url: '/api/account/exports/latest' }));
      if (latest.status === 'ready') return latest.id as string;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  beforeAll(async () => {
    t = await createTestApp();
    const subjectId = (await createSubject(t.db)).id;
    const otherSubjectId = (await createSubject(t.db)).id;
    const callers = {
      student: await signIn(t, await createUser(t.db, { role: 'student' })),
      otherStudent: await signIn(t, await createUser(t.db, { role: 'student' })),
      teacher: await signIn(t, await createTeacher(t.db, { subjectIds: [subjectId] })),
      otherTeacher: await signIn(t, await createTeacher(t.db, { subjectIds: [otherSubjectId] })),
    };
    const bidder = await signIn(t, await createTeacher(t.db, { subjectIds: [subjectId] }));
    const outsiderId = (await createUser(t.db)).id;
    const newPartnerId = (await createUser(t.db)).id;

    const form = formData(
      { type: 'tutoring', subjectId, description: 'Help with quadratic equations', budgetMinCents: '800' },
      { field: 'attachments', bytes: pdf, filename: 'notes.pdf', type: 'application/pdf' },
    );
    const { request } = await ok(await send(callers.student, { url: '/api/requests', payload: form }));
    const second = await ok(
      await send(callers.student, {
        url: '/api/requests',
        payload: { type: 'tutoring', subjectId, description: 'Help with long division', budgetMinCents: 800 },
      }),
    );
    const bid = await ok(
      await send(bidder, {
        url: `/api/jobs/${second.request.id}/bids`,
        payload: { amountCents: 900, message: 'I can help.' },
      }),
    );
    const upload = await ok(
      await send(callers.student, {
        url: '/api/chat/uploads',
        payload: formData({}, { field: 'file', bytes: TINY_PNG, filename: 'graph.png', type: 'image/png' }),
      }),
    );
    const message = await ok(
      await send(callers.student, {
        url: '/api/chat/messages',
        payload: {
          clientId: randomUUID(),
          receiverId: callers.teacher.user.id,
          content: 'Here is my graph',
          attachment: { fileKey: upload.fileKey, originalFilename: upload.originalFilename },
        },
      }),
    );
    // Someone outside the matrix, whose avatar the matrix's own avatar uploads cannot replace.
    const avatar = await ok(
      await send(bidder, {
        url: '/api/profile/avatar',
        payload: formData({}, { field: 'avatar', bytes: TINY_PNG, filename: 'me.png', type: 'image/png' }),
      }),
    );
    const meeting = await ok(
      await send(callers.teacher, {
        url: `/api/chat/rooms/${message.roomId}/meetings`,
        payload: { title: 'Matrix meeting', startTime: fromNow(2 * HOUR_MS).toISOString() },
      }),
    );
    const startingMeeting = await ok(
      await send(callers.teacher, {
        url: `/api/chat/rooms/${message.roomId}/meetings`,
        payload: { title: 'Starting meeting', startTime: fromNow(5 * MINUTE_MS).toISOString() },
      }),
    );
    /** A request of `student` with an offer from `teacher`, and the checkout accepting it started. */
    const checkoutWithTeacher = async () => {
      const job = await createRequest(t.db, { studentId: callers.student.user.id, subjectId });
      const [jobBid] = await t.db
        .insert(tutorBids)
        .values({ requestId: job.id, tutorId: callers.teacher.user.id, amountCents: 1000 })
        .returning();
      const started = await ok(
        await send(callers.student, { method: 'POST', url: `/api/requests/${job.id}/bids/${jobBid!.id}/accept` }),
      );
      return { requestId: job.id, checkoutId: started.checkoutId as string };
    };
    /** A request of `student` whose offer from `teacher` is accepted and paid, then completed (and reviewed) when asked. */
    const jobWithTeacher = async (stage: 'accepted' | 'completed' | 'reviewed') => {
      const { requestId, checkoutId } = await checkoutWithTeacher();
      await ok(await send(callers.student, { url: `/api/checkouts/${checkoutId}/pay`, payload: { card: TEST_CARD } }));
      if (stage !== 'accepted')
        await ok(await send(callers.student, { method: 'POST', url: `/api/requests/${requestId}/complete` }));
      if (stage !== 'reviewed') return { requestId, checkoutId, reviewId: null };
      const written = await ok(
        await send(callers.student, { url: `/api/requests/${requestId}/review`, payload: { rating: 5 } }),
      );
      return { requestId, checkoutId, reviewId: written.id as string };
    };
    /** A request of `student` whose offer from `teacher` was accepted before payments existed: no checkout. */
    const jobWithoutPayment = async () => {
      const job = await createRequest(t.db, { studentId: callers.student.user.id, subjectId });
      const [jobBid] = await t.db
        .insert(tutorBids)
        .values({ requestId: job.id, tutorId: callers.teacher.user.id, amountCents: 1000, status: 'accepted' })
        .returning();
      await t.db
        .update(tutoringRequests)
        .set({ status: 'accepted', acceptedBidId: jobBid!.id })
        .where(eq(tutoringRequests.id, job.id));
      return job.id;
    };
    const reviewed = await jobWithTeacher('reviewed');
    const jobs = {
      delivered: (await jobWithTeacher('accepted')).requestId,
      completable: (await jobWithTeacher('accepted')).requestId,
      reviewable: (await jobWithTeacher('completed')).requestId,
      unpaid: await jobWithoutPayment(),
    };
    const [notification] = await t.db
      .select({ id: teacherNotifications.id })
      .from(teacherNotifications)
      .where(eq(teacherNotifications.teacherId, callers.teacher.user.id));
    world = {
      callers,
      subjectId,
      otherSubjectId,
      outsiderId,
      newPartnerId,
      requestId: request.id,
      acceptable: { requestId: second.request.id, bidId: bid.id },
      roomId: message.roomId,
      messageId: message.id,
      meetingId: meeting.meeting.id,
      startingMeetingId: startingMeeting.meeting.id,
      notificationId: notification!.id,
      avatarName: avatar.image.split('/').pop(),
      jobs,
      reviewId: reviewed.reviewId!,
      paidCheckoutId: reviewed.checkoutId,
      studentOtherSessionId: (await createSessionCookie(t.db, callers.student.user.id)).sessionId,
      pushSubscriptionId: (
        await ok(await send(callers.student, { url: '/api/push/subscriptions', payload: pushSubscriptionBody() }))
      ).id as string,
      studentExportId: await readyExportOf(callers.student),
      checkouts: {
        viewed: (await checkoutWithTeacher()).checkoutId,
        payable: (await checkoutWithTeacher()).checkoutId,
        cancellable: (await checkoutWithTeacher()).checkoutId,
      },
    };
  });
  afterAll(() => t.close());

  it('has a row for every route of the API, and a route for every row', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const routes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes.sort()).toEqual(Object.keys(MATRIX).sort());
  });

  it('declares the session cookie on exactly the routes that answer 401 without one', async () => {
    type Operation = { security?: unknown[] };
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      security: unknown[];
      paths: Record<string, Record<string, Operation>>;
    }>();
    for (const [route, { expected }] of Object.entries(MATRIX)) {
      const [method, path] = route.split(' ') as [string, string];
      const operation = document.paths[path]![method.toLowerCase()]!;
      const security = operation.security ?? document.security;
      expect(security.length > 0, route).toBe(expected.anonymous === 401);
    }
  });

  it.each(Object.entries(MATRIX))('%s', async (route, { expected, call }) => {
    const method = route.split(' ')[0];
    const answered: Partial<Record<Actor, number>> = {};
    for (const actor of ACTORS) {
      const caller = actor === 'anonymous' ? undefined : world.callers[actor];
      answered[actor] = (await send(caller, { method, ...call(world, actor) })).statusCode;
    }
    expect(answered).toEqual(expected);
  });
});
