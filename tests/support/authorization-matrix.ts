import { randomBytes, randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teacherNotifications } from '../../src/server/db/schema/notifications.ts';
import { tutorBids, tutoringRequests } from '../../src/server/db/schema/requests.ts';
import { signIn, type Caller } from './callers.ts';
import { TEST_CARD } from './checkout.ts';
import {
  createRequest,
  createSessionCookie,
  createSubject,
  createTeacher,
  createUser,
  freshClientAddress,
  unsubscribeTokenOf,
} from './factories.ts';
import { formData, pdfBytes, TINY_PNG } from './files.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { fromNow, HOUR_MS, MINUTE_MS } from './time.ts';

// The authorization matrix: every route of the OpenAPI document × every kind of caller, with the status each must
// get. Its rows are split into suites by the areas of the API (the first part of a route's path); each suite builds
// the same world and calls its rows in their order. The owners come last in each row, so a success that changes
// state (accepting a bid, reading a notification) cannot hide a refusal of someone else.

export const ACTORS = ['anonymous', 'otherStudent', 'otherTeacher', 'student', 'teacher'] as const;
export type Actor = (typeof ACTORS)[number];

/**
 * The world the matrix runs in: `student` owns a request in `teacher`'s subject (with a file), has a bid on it from
 * a third teacher, and a chat room with `teacher` holding a file. `otherTeacher` teaches another subject.
 */
export type World = {
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
  /** `student`'s signed link to stop e-mails of product news, which works for whoever holds it. */
  unsubscribeToken: string;
  /** Requests of `student` sent to `teacher` directly: one waiting for an answer, one `teacher` declined. */
  direct: { waiting: string; declined: string };
};

export type Row = {
  /** The status each actor gets. */
  expected: Record<Actor, number>;
  /** A well-formed call (so that the answer is about who calls, not about the input). */
  call: (world: World, actor: Actor) => InjectOptions;
};

export const everyone = (status: number): Record<Actor, number> => ({
  anonymous: status,
  otherStudent: status,
  otherTeacher: status,
  student: status,
  teacher: status,
});
export const signedIn = (status: number): Record<Actor, number> => ({ ...everyone(status), anonymous: 401 });
/** A browser's push subscription at a public address (a literal one: no name to resolve). */
export const pushSubscriptionBody = () => ({
  endpoint: `https://8.8.8.8/push/${randomUUID()}`,
  keys: { p256dh: randomBytes(65).toString('base64url'), auth: randomBytes(16).toString('base64url') },
});

/** The suites of the matrix, each with the areas of the API whose routes it has a row for. */
const SUITE_AREAS = {
  site: ['health', 'livez', 'readyz', 'settings', 'robots.txt', 'sitemap.xml', 'contact', 'subjects'],
  accounts: ['accounts', 'account', 'push', 'notifications', 'search', 'reports'],
  admin: ['admin'],
  profiles: ['profile', 'files', 'tutors', 'shared-jobs'],
  marketplace: ['requests', 'jobs', 'reviews'],
  payments: ['checkouts', 'payments', 'earnings', 'refunds'],
  chat: ['chat', 'guru'],
} as const;
export type MatrixSuite = keyof typeof SUITE_AREAS;

/** A route's area: the first part of its path after /api (`GET /api/chat/rooms`: chat; `GET /livez`: livez). */
const areaOf = (route: string) =>
  route
    .split(' ')[1]!
    .replace(/^\/api\//, '/')
    .split('/')[1]!;

/** The suite that has a row for this route, if any. */
export const suiteOf = (route: string) =>
  (Object.keys(SUITE_AREAS) as MatrixSuite[]).find((suite) =>
    (SUITE_AREAS[suite] as readonly string[]).includes(areaOf(route)),
  );

type OpenApiDocument = { security: unknown[]; paths: Record<string, Record<string, { security?: unknown[] }>> };
const openApiDocument = async (t: TestApp) =>
  (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<OpenApiDocument>();

/** Every route of the app's OpenAPI document, as `METHOD /path`. */
export const routesOf = async (t: TestApp) =>
  Object.entries((await openApiDocument(t)).paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
  );

/** A call as this caller (undefined: signed out), each from its own address so that no rate limit answers it. */
const sendAs = (t: TestApp, caller: Caller | undefined, options: InjectOptions) =>
  t.app.inject({
    method: options.payload ? 'POST' : 'GET',
    remoteAddress: freshClientAddress(),
    ...options,
    headers: { ...options.headers, ...(caller ? { cookie: caller.cookie } : {}) },
  });

/** Builds the world on a new app (see `World`). */
async function buildWorld(t: TestApp): Promise<World> {
  const send = (caller: Caller | undefined, options: InjectOptions) => sendAs(t, caller, options);
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
    { field: 'attachments', bytes: pdfBytes(), filename: 'notes.pdf', type: 'application/pdf' },
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
  const directRequest = (directState: 'waiting' | 'declined') =>
    createRequest(t.db, {
      studentId: callers.student.user.id,
      subjectId,
      directTutorId: callers.teacher.user.id,
      directState,
    });
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
  return {
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
    unsubscribeToken: unsubscribeTokenOf(callers.student.user.id, 'news'),
    direct: {
      waiting: (await directRequest('waiting')).id,
      declined: (await directRequest('declined')).id,
    },
    checkouts: {
      viewed: (await checkoutWithTeacher()).checkoutId,
      payable: (await checkoutWithTeacher()).checkoutId,
      cancellable: (await checkoutWithTeacher()).checkoutId,
    },
  };
}

/** The suite's rows, in order, each called by every kind of caller on a world of its own. */
export function describeMatrix(suite: MatrixSuite, rows: Record<string, Row>) {
  describe('the authorization matrix', () => {
    describe(suite, () => {
      let t: TestApp;
      let world: World;
      beforeAll(async () => {
        t = await createTestApp();
        world = await buildWorld(t);
      });
      afterAll(() => t.close());

      it('has a row for every route of its areas, and a route for every row', async () => {
        const routes = (await routesOf(t)).filter((route) => suiteOf(route) === suite);
        expect(routes.sort()).toEqual(Object.keys(rows).sort());
      });

      it('declares the session cookie on exactly the routes that answer 401 without one', async () => {
        const document = await openApiDocument(t);
        for (const [route, { expected }] of Object.entries(rows)) {
          const [method, path] = route.split(' ') as [string, string];
          const operation = document.paths[path]![method.toLowerCase()]!;
          const security = operation.security ?? document.security;
          expect(security.length > 0, route).toBe(expected.anonymous === 401);
        }
      });

      it.each(Object.entries(rows))('%s', async (route, { expected, call }) => {
        const method = route.split(' ')[0];
        const answered: Partial<Record<Actor, number>> = {};
        for (const actor of ACTORS) {
          const caller = actor === 'anonymous' ? undefined : world.callers[actor];
          answered[actor] = (await sendAs(t, caller, { method, ...call(world, actor) })).statusCode;
        }
        expect(answered).toEqual(expected);
      });
    });
  });
}
