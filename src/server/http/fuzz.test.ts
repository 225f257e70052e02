import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AI_USER_ID } from '#shared/constants.ts';
import { messages } from '../db/schema/chat.ts';
import { createRequest, createSubject, freshClientAddress } from '../../../tests/support/factories.ts';
import { call, signedInStudent, signedInTeacher, type Caller } from '../../../tests/support/callers.ts';
import { formData, hostileFiles } from '../../../tests/support/files.ts';
import { createTestApp, type TestApp } from '../../../tests/support/test-app.ts';

// Requests built from each route's own schema, filled with hostile values, from every kind of caller. The server
// must answer each without a 5xx, and a refused request must leave every table as it was.

const FUZZ_REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);

/** Tables a refused request must not touch (limit counters and moderation flags record refusals by design). */
const GUARDED_TABLES = [
  'users',
  'accounts',
  'sessions',
  'tutoring_requests',
  'tutor_bids',
  'chat_rooms',
  'messages',
  'jitsi_meetings',
  'contact_messages',
  'teacher_notifications',
  'student_notifications',
  'mail_outbox',
  'push_subscriptions',
  'push_deliveries',
  'notification_settings',
  'visible_tabs',
  'data_exports',
  'account_deletions',
  'saved_tutors',
  'payment_adjustments',
];

type Operation = {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  bodyFields: string[];
  takesBody: boolean;
  takesFiles: boolean;
};

const HOSTILE_STRINGS = [
  '',
  ' ',
  '-'.repeat(36),
  `1_${'-'.repeat(36)}`,
  Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000000Z', '-'.repeat(36)])).toString('base64url'),
  Buffer.from(JSON.stringify(['2026-02-30T00:00:00.000000Z', '00000000-0000-0000-0000-000000000000'])).toString(
    'base64url',
  ),
  Buffer.from(JSON.stringify(['2026-99-99T99:99:99.000000Z', '00000000-0000-0000-0000-000000000000'])).toString(
    'base64url',
  ),
  '00000000-0000-0000-0000-000000000000',
  "' OR '1'='1' --",
  "'; drop table users; --",
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '../../../../etc/passwd',
  '%00',
  '\u0000',
  '\u202e\u0000\ud800',
  'NaN',
  'Infinity',
  '-1',
  '1e309',
  '9'.repeat(400),
  '😀'.repeat(500),
  'null',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'x'.repeat(70_000),
];

const hostileString = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.uuid(),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { depthSize: 'small' },
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileString, { maxLength: 4 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
);

describe('the API under fuzzing', () => {
  let t: TestApp;
  let operations: Operation[];
  let callers: Caller[];
  let knownIds: string[];

  beforeAll(async () => {
    t = await createTestApp();
    const subjectId = (await createSubject(t.db)).id;
    const student = await signedInStudent(t);
    const teacher = await signedInTeacher(t, [subjectId]);
    callers = [student, teacher, await signedInStudent(t)];
    const request = await createRequest(t.db, { studentId: student.user.id, subjectId });
    // Sent to `teacher` directly: the decline and open-to-all routes meet a request they can act on.
    const direct = await createRequest(t.db, {
      studentId: student.user.id,
      subjectId,
      directTutorId: teacher.user.id,
      directState: 'waiting',
    });
    knownIds = [subjectId, student.user.id, teacher.user.id, request.id, direct.id];

    type OpenApiOperation = {
      parameters?: Array<{ in: string; name: string }>;
      requestBody?: { content: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
    };
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, OpenApiOperation>>;
    }>();
    operations = Object.entries(document.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([method, operation]) => {
        const parameters = operation.parameters ?? [];
        const bodySchema = Object.values(operation.requestBody?.content ?? {})[0]?.schema;
        return {
          method: method.toUpperCase(),
          path,
          pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
          queryParams: parameters.filter((p) => p.in === 'query').map((p) => p.name),
          bodyFields: Object.keys(bodySchema?.properties ?? {}),
          takesBody: operation.requestBody !== undefined || method !== 'get',
          takesFiles: 'multipart/form-data' in (operation.requestBody?.content ?? {}),
        };
      }),
    );
  });
  afterAll(() => t.close());

  const guardedRows = async () =>
    (
      await t.db.execute<{ total: number }>(
        sql.raw(`select ${GUARDED_TABLES.map((table) => `(select count(*) from ${table})`).join(' + ')} as total`),
      )
    ).rows[0]!.total;

  /**
   * Waits for the data exports an accepted request started: their builder writes in the background (a notice and its
   * mail), which must not be taken for a write of the next, refused request.
   */
  const dataExportsBuilt = async () => {
    while (
      (
        await t.db.execute<{ building: number }>(
          sql`select count(*)::int as building from data_exports where status = 'building'`,
        )
      ).rows[0]!.building > 0
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  /** One hostile request for an operation: its path ids, query and body from its schema, any caller. */
  const requestFor = (operation: Operation): fc.Arbitrary<InjectOptions & { url: string }> =>
    fc
      .record({
        caller: fc.option(fc.constantFrom(...callers.map((_, index) => index)), { nil: undefined }),
        ids: fc.array(fc.oneof(fc.constantFrom(...knownIds), fc.uuid(), hostileString), {
          minLength: operation.pathParams.length,
          maxLength: operation.pathParams.length,
        }),
        query: fc.dictionary(
          operation.queryParams.length > 0 ? fc.constantFrom(...operation.queryParams) : hostileString,
          hostileString,
          { maxKeys: 3 },
        ),
        body: fc.oneof(
          fc.dictionary(
            operation.bodyFields.length > 0
              ? fc.oneof(fc.constantFrom(...operation.bodyFields), hostileString)
              : hostileString,
            hostileValue,
            { maxKeys: 6 },
          ),
          hostileValue,
          fc.constant('{"unterminated": '),
        ),
        contentType: fc.constantFrom(
          'application/json',
          'application/json; charset=utf-8',
          'text/plain',
          'multipart/form-data; boundary=x',
          'application/x-www-form-urlencoded',
        ),
        header: fc.tuple(
          fc.constantFrom('x-forwarded-for', 'origin', 'idempotency-key', 'cookie', 'accept'),
          hostileString,
        ),
      })
      .map(({ caller, ids, query, body, contentType, header }) => {
        let url = operation.path;
        operation.pathParams.forEach((name, index) => {
          url = url.replace(`{${name}}`, encodeURIComponent(ids[index]!.replace(/[\ud800-\udfff]/g, '\ufffd')));
        });
        const search = new URLSearchParams(query).toString();
        const cookie = caller === undefined ? undefined : callers[caller]!.cookie;
        const headers: Record<string, string> = { [header[0]]: header[1].replace(/[^\t\x20-\x7e]/g, '') };
        if (cookie) headers.cookie = cookie;
        const options: InjectOptions & { url: string } = {
          method: operation.method,
          url: search ? `${url}?${search}` : url,
          headers,
          remoteAddress: freshClientAddress(),
        };
        if (operation.takesBody && operation.method !== 'GET') {
          options.headers!['content-type'] = contentType;
          options.payload = typeof body === 'string' ? body : JSON.stringify(body);
        }
        return options;
      });

  it(`answers ${FUZZ_REQUESTS} hostile requests without a server error, writing nothing when it refuses`, async () => {
    const request = fc.constantFrom(...operations).chain(requestFor);
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(request, async (options) => {
        const writes = options.method !== 'GET';
        if (writes) await dataExportsBuilt();
        const before = writes ? await guardedRows() : 0;
        const response = await t.app.inject(options);
        sent++;
        expect(response.statusCode, `${options.method} ${options.url}\n${response.body}`).toBeLessThan(500);
        if (writes && response.statusCode >= 400) {
          expect(await guardedRows(), `${options.method} ${options.url} wrote`).toBe(before);
        }
      }),
      { numRuns: FUZZ_REQUESTS, endOnFailure: true },
    );
    expect(sent).toBe(FUZZ_REQUESTS);
  }, 600_000);

  it('answers hostile files on every upload route and from Guru AI without a server error, and goes on serving', async () => {
    const uploadRoutes = operations.filter((operation) => operation.takesFiles);
    expect(uploadRoutes.map((operation) => operation.path)).toEqual(
      expect.arrayContaining(['/api/chat/uploads', '/api/profile/avatar', '/api/requests']),
    );
    const files = hostileFiles();
    for (const operation of uploadRoutes) {
      for (const field of operation.bodyFields) {
        // New callers for each field, so that every file is looked at rather than refused by a per-user ceiling.
        const fieldCallers = [await signedInStudent(t), await signedInTeacher(t, [knownIds[0]!])];
        for (const file of files) {
          for (const caller of fieldCallers) {
            const response = await t.app.inject({
              method: operation.method,
              url: operation.path,
              payload: formData({}, { field, ...file }),
              headers: { cookie: caller.cookie },
              remoteAddress: freshClientAddress(),
            });
            expect(response.statusCode, `${file.name} as ${field} to ${operation.path}`).toBeLessThan(500);
          }
        }
      }
    }

    // Each file the chat keeps goes to Guru AI as a photo; every question gets its answer before the next is asked
    // (a student has one question in flight at a time).
    const asker = await signedInStudent(t);
    const answers = () =>
      t.db.$count(messages, and(eq(messages.senderId, AI_USER_ID), eq(messages.receiverId, asker.user.id)));
    let asked = 0;
    for (const file of files) {
      const uploaded = await t.app.inject({
        method: 'POST',
        url: '/api/chat/uploads',
        payload: formData({}, { field: 'file', ...file }),
        headers: { cookie: asker.cookie },
      });
      expect(uploaded.statusCode, file.name).toBeLessThan(500);
      if (uploaded.statusCode !== 201) continue;
      const sent = await call(t, asker, 'POST', '/api/chat/messages', {
        clientId: randomUUID(),
        receiverId: AI_USER_ID,
        content: '',
        attachment: { fileKey: uploaded.json().fileKey },
      });
      expect(sent.statusCode, file.name).toBe(201);
      asked++;
      await expect.poll(answers, { timeout: 60_000, interval: 200 }).toBe(asked);
    }
    expect(asked).toBeGreaterThan(0);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  }, 300_000);

  it('answers cursors whose id is 36 dashes with 400, on every paged list', async () => {
    const dashes = '-'.repeat(36);
    const [student, teacher] = callers;
    for (const [caller, url] of [
      [student, `/api/chat/rooms?cursor=1_${dashes}`],
      [student, `/api/requests/mine?cursor=1_${dashes}`],
      [teacher, `/api/jobs?cursor=1_${dashes}`],
    ] as const) {
      const response = await t.app.inject({ method: 'GET', url, headers: { cookie: caller!.cookie } });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
    }
  });
});
