import { describeMatrix, everyone, signedIn, type Row } from '../../../tests/support/authorization-matrix.ts';
import { formData, TINY_PNG } from '../../../tests/support/files.ts';

const ROWS: Record<string, Row> = {
  'GET /api/profile': { expected: signedIn(200), call: () => ({ url: '/api/profile' }) },
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
  'GET /api/tutors/saved': {
    expected: { anonymous: 401, otherStudent: 200, otherTeacher: 403, student: 200, teacher: 403 },
    call: () => ({ url: '/api/tutors/saved' }),
  },
  'GET /api/tutors/saved/ids': {
    expected: { anonymous: 401, otherStudent: 200, otherTeacher: 403, student: 200, teacher: 403 },
    call: () => ({ url: '/api/tutors/saved/ids' }),
  },
  'PUT /api/tutors/{id}/saved': {
    expected: { anonymous: 401, otherStudent: 204, otherTeacher: 403, student: 204, teacher: 403 },
    call: (w) => ({ method: 'PUT', url: `/api/tutors/${w.callers.teacher.user.id}/saved` }),
  },
  'DELETE /api/tutors/{id}/saved': {
    expected: { anonymous: 401, otherStudent: 204, otherTeacher: 403, student: 204, teacher: 403 },
    call: (w) => ({ method: 'DELETE', url: `/api/tutors/${w.callers.teacher.user.id}/saved` }),
  },
  'GET /api/tutors': { expected: everyone(200), call: () => ({ url: '/api/tutors?sort=rating&minRating=4' }) },
  'GET /api/tutors/{id}': {
    expected: everyone(200),
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
};

describeMatrix('profiles', ROWS);
