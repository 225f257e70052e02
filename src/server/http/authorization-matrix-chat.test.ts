import { randomUUID } from 'node:crypto';
import { describeMatrix, signedIn, type Row } from '../../../tests/support/authorization-matrix.ts';
import { formData, TINY_PNG } from '../../../tests/support/files.ts';
import { fromNow, HOUR_MS } from '../../../tests/support/time.ts';

const ROWS: Record<string, Row> = {
  'GET /api/guru/messages': {
    expected: { anonymous: 401, otherStudent: 200, otherTeacher: 403, student: 200, teacher: 403 },
    call: () => ({ url: '/api/guru/messages' }),
  },
  'DELETE /api/guru/messages': {
    expected: { anonymous: 401, otherStudent: 204, otherTeacher: 403, student: 204, teacher: 403 },
    call: () => ({ method: 'DELETE', url: '/api/guru/messages' }),
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
  'POST /api/chat/meetings/{meetingId}/join': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 404, student: 201, teacher: 201 },
    call: (w) => ({ url: `/api/chat/meetings/${w.startingMeetingId}/join`, payload: {} }),
  },
  'GET /api/chat/rooms/{roomId}': {
    expected: { anonymous: 401, otherStudent: 404, otherTeacher: 404, student: 200, teacher: 200 },
    call: (w) => ({ url: `/api/chat/rooms/${w.roomId}` }),
  },
};

describeMatrix('chat', ROWS);
