import { randomUUID } from 'node:crypto';
import {
  describeMatrix,
  everyone,
  pushSubscriptionBody,
  signedIn,
  type Row,
} from '../../../tests/support/authorization-matrix.ts';
import { DEFAULT_TEST_PASSWORD } from '../../../tests/support/factories.ts';

const ROWS: Record<string, Row> = {
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
        payload: {
          name,
          email: `${name}@example.com`,
          password: 'secret1',
          acceptTerms: true,
          acceptPrivacy: true,
          confirmAge: true,
        },
      };
    },
  },
  'GET /api/account/devices': { expected: signedIn(200), call: () => ({ url: '/api/account/devices' }) },
  'GET /api/push/public-key': { expected: signedIn(200), call: () => ({ url: '/api/push/public-key' }) },
  'GET /api/push/subscriptions': { expected: signedIn(200), call: () => ({ url: '/api/push/subscriptions' }) },
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
  'POST /api/account/deletion': {
    // A wrong password: a right one would sign the actor out of every row after this one (the deletion itself, its
    // refusals and the super-admin's are tested in features/account).
    expected: signedIn(400),
    call: () => ({ url: '/api/account/deletion', payload: { password: 'not-the-password' } }),
  },
  'POST /api/account/deletion/restore': {
    // Needs no session: the address and password of an account being deleted; nobody's here.
    expected: everyone(400),
    call: () => ({
      url: '/api/account/deletion/restore',
      payload: { email: `nobody${randomUUID().slice(0, 8)}@example.com`, password: DEFAULT_TEST_PASSWORD },
    }),
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
  'GET /api/notifications': { expected: signedIn(200), call: () => ({ url: '/api/notifications' }) },
  'POST /api/notifications/{id}/read': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 404, student: 404, teacher: 204 },
    call: (w) => ({ url: `/api/notifications/${w.notificationId}/read` }),
  },
  'POST /api/notifications/read-all': { expected: signedIn(200), call: () => ({ url: '/api/notifications/read-all' }) },
  'GET /api/notifications/settings': { expected: signedIn(200), call: () => ({ url: '/api/notifications/settings' }) },
  'GET /api/notifications/unsubscribe': {
    expected: everyone(200),
    call: (w) => ({ url: `/api/notifications/unsubscribe?token=${w.unsubscribeToken}` }),
  },
  'POST /api/notifications/unsubscribe': {
    expected: everyone(200),
    call: (w) => ({ url: `/api/notifications/unsubscribe?token=${w.unsubscribeToken}` }),
  },
  'PATCH /api/notifications/settings': {
    expected: signedIn(200),
    call: () => ({
      method: 'PATCH',
      url: '/api/notifications/settings',
      payload: { topics: { news: { email: true } } },
    }),
  },
};

describeMatrix('accounts', ROWS);
