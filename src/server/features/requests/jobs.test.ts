import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailLogs, mailOutbox, studentNotifications } from '../../db/schema/notifications.ts';
import { tutorBids } from '../../db/schema/requests.ts';
import { createRequest, createSubject } from '../../../../tests/support/factories.ts';
import { call, signedInStudent, signedInTeacher, type Caller } from '../../../../tests/support/callers.ts';
import { connectSocket, nextEvent } from '../../../../tests/support/socket-client.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { HOUR_MS } from '../../../../tests/support/time.ts';

const hoursAgo = (hours: number) => new Date(Date.now() - hours * HOUR_MS);
const ids = (response: { json(): { jobs: { id: string }[] } }) => response.json().jobs.map((job) => job.id);

describe('the jobs list', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 401 without a session and 403 to a student', async () => {
    expect((await call(t, undefined, 'GET', '/api/jobs')).statusCode).toBe(401);
    const student = await call(t, await signedInStudent(t), 'GET', '/api/jobs');
    expect(student.statusCode).toBe(403);
    expect(student.json()).toMatchObject({ code: 'FORBIDDEN', message: 'Only teachers can do this.' });
  });

  it('shows a teacher only open, unexpired requests in their subjects, newest first, with the tab counts', async () => {
    const [algebra, geometry, chemistry] = await Promise.all([
      createSubject(t.db, { name: 'Algebra I' }),
      createSubject(t.db),
      createSubject(t.db),
    ]);
    const teacher = await signedInTeacher(t, [algebra.id, geometry.id]);
    const student = (await signedInStudent(t)).user.id;
    const oldest = await createRequest(t.db, { studentId: student, subjectId: algebra.id, createdAt: hoursAgo(3) });
    const assignment = await createRequest(t.db, {
      studentId: student,
      subjectId: geometry.id,
      type: 'assignment',
      budgetMinCents: 500,
      budgetMaxCents: 99_900,
      createdAt: hoursAgo(2),
      attachments: [
        {
          file_path: 'request-attachments/x.pdf',
          file_type: 'application/pdf',
          original_filename: 'x.pdf',
          file_size: 10,
        },
      ],
    });
    const newest = await createRequest(t.db, { studentId: student, subjectId: algebra.id, createdAt: hoursAgo(1) });
    // Not shown: another subject, expired but not yet closed by the job, closed, accepted.
    await createRequest(t.db, { studentId: student, subjectId: chemistry.id });
    await createRequest(t.db, { studentId: student, subjectId: algebra.id, createdAt: hoursAgo(49) });
    await createRequest(t.db, { studentId: student, subjectId: algebra.id, status: 'closed' });
    await createRequest(t.db, { studentId: student, subjectId: geometry.id, status: 'accepted' });

    const response = await call(t, teacher, 'GET', '/api/jobs');
    expect(response.statusCode).toBe(200);
    expect(ids(response)).toEqual([newest.id, assignment.id, oldest.id]);
    expect(response.json().counts).toEqual({ all: 3, tutoring: 2, assignment: 1 });
    expect(response.json().nextCursor).toBeNull();
    const card = response.json().jobs[1];
    expect(card).toMatchObject({
      id: assignment.id,
      type: 'assignment',
      budgetMinCents: 500,
      budgetMaxCents: 99_900,
      attachmentCount: 1,
      alreadyBid: false,
      status: 'open',
    });
    expect(card.attachments).toEqual([
      {
        index: 0,
        name: 'x.pdf',
        type: 'application/pdf',
        size: 10,
        url: `/api/requests/${assignment.id}/attachments/0`,
      },
    ]);
    expect(card).not.toHaveProperty('studentId');
    expect(response.json().jobs[0]).toMatchObject({ subjectName: 'Algebra I' });

    // The type filter narrows the list; the tab counts stay those of the subject filter.
    const tutoring = await call(t, teacher, 'GET', '/api/jobs?type=tutoring');
    expect(ids(tutoring)).toEqual([newest.id, oldest.id]);
    expect(tutoring.json().counts).toEqual({ all: 3, tutoring: 2, assignment: 1 });
    const bySubject = await call(t, teacher, 'GET', `/api/jobs?subjectId=${geometry.id}`);
    expect(ids(bySubject)).toEqual([assignment.id]);
    expect(bySubject.json().counts).toEqual({ all: 1, tutoring: 0, assignment: 1 });
    // A subject the teacher does not teach shows nothing, not someone else's jobs.
    const foreign = await call(t, teacher, 'GET', `/api/jobs?subjectId=${chemistry.id}`);
    expect(foreign.json()).toEqual({ jobs: [], nextCursor: null, counts: { all: 0, tutoring: 0, assignment: 0 } });
  });

  it('marks the jobs this teacher has bid on', async () => {
    const subject = await createSubject(t.db);
    const teacher = await signedInTeacher(t, [subject.id]);
    const colleague = await signedInTeacher(t, [subject.id]);
    const student = (await signedInStudent(t)).user.id;
    const job = await createRequest(t.db, { studentId: student, subjectId: subject.id });
    await t.db.insert(tutorBids).values({ requestId: job.id, tutorId: teacher.user.id, amountCents: 1000 });
    expect((await call(t, teacher, 'GET', '/api/jobs')).json().jobs[0]).toMatchObject({ id: job.id, alreadyBid: true });
    expect((await call(t, colleague, 'GET', '/api/jobs')).json().jobs[0]).toMatchObject({
      id: job.id,
      alreadyBid: false,
    });
  });

  it('pages through jobs posted at the same instant without skipping or repeating one', async () => {
    const subject = await createSubject(t.db);
    const teacher = await signedInTeacher(t, [subject.id]);
    const student = (await signedInStudent(t)).user.id;
    const createdAt = new Date();
    for (let i = 0; i < 45; i++)
      await createRequest(t.db, {
        studentId: student,
        subjectId: subject.id,
        createdAt,
        type: i % 3 === 0 ? 'assignment' : 'tutoring',
        budgetMinCents: 800,
        budgetMaxCents: 1500,
      });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await call(t, teacher, 'GET', `/api/jobs${cursor ? `?cursor=${cursor}` : ''}`);
      expect(response.json().counts).toEqual({ all: 45, tutoring: 30, assignment: 15 });
      seen.push(...ids(response));
      cursor = response.json().nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(45);
    expect(new Set(seen).size).toBe(45);
  });

  it('refuses a bad filter with a 400', async () => {
    const teacher = await signedInTeacher(t, []);
    expect((await call(t, teacher, 'GET', '/api/jobs?type=lesson')).json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { type: 'Please choose a request type' },
    });
    expect((await call(t, teacher, 'GET', '/api/jobs?subjectId=maths')).statusCode).toBe(400);
    expect((await call(t, teacher, 'GET', '/api/jobs?cursor=abc')).statusCode).toBe(400);
  });
});

describe('placing a bid', () => {
  let t: TestApp;
  let url: string;
  let subjectId: string;
  let student: Caller;
  beforeAll(async () => {
    t = await createTestApp();
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    subjectId = (await createSubject(t.db, { name: 'Statistics II' })).id;
    student = await signedInStudent(t);
  });
  afterAll(() => t.close());

  const job = (overrides: Partial<Parameters<typeof createRequest>[1]> = {}) =>
    createRequest(t.db, { studentId: student.user.id, subjectId, ...overrides });
  const bid = (caller: Caller | undefined, requestId: string, payload: object) =>
    call(t, caller, 'POST', `/api/jobs/${requestId}/bids`, payload);
  const written = async () => ({
    bids: await t.db.$count(tutorBids),
    notices: await t.db.$count(studentNotifications),
  });

  it('refuses a bid message carrying contact details: 400, no bid, no notice', async () => {
    const teacher = await signedInTeacher(t, [subjectId]);
    const request = await job();
    const before = await written();
    const response = await bid(teacher, request.id, { amountCents: 1000, message: 'Email me: tutor.jane@gmail.com' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'MESSAGE_BLOCKED', fields: { message: expect.any(String) } });
    expect(await written()).toEqual(before);
  });

  it('stores the bid and tells the student: an offer notification with the tutor’s details, an e-mail and a live event', async () => {
    const teacher = await signedInTeacher(t, [subjectId]);
    const request = await job();
    const socket = await connectSocket(url, { cookie: student.cookie });
    const event = nextEvent(socket, 'notification:new');

    const response = await bid(teacher, request.id, {
      amountCents: 1250,
      message: '  Happy to help with regressions.  ',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      id: expect.any(String),
      requestId: request.id,
      amountCents: 1250,
      message: 'Happy to help with regressions.',
      status: 'pending',
      createdAt: expect.any(String),
    });
    expect(await event).toEqual([{ kind: 'offer', requestId: request.id }]);
    socket.close();

    const [notice] = await t.db
      .select()
      .from(studentNotifications)
      .where(eq(studentNotifications.requestId, request.id));
    expect(notice).toMatchObject({
      studentId: student.user.id,
      tutorId: teacher.user.id,
      tutorName: teacher.user.username,
      tutorAvatar: null,
      tutorVhNumber: teacher.user.vhNumber,
      bidAmountCents: 1250,
      bidMessage: 'Happy to help with regressions.',
      read: false,
    });
    // The student has mail from the other tests' bids too: this bid's is the one that links to this request.
    const mail = (await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, student.user.email))).find(
      (candidate) => candidate.textBody.includes(request.id),
    );
    expect(mail!.subject).toBe('New offer on your request - Virtual Help');
    expect(mail!.textBody).toContain(
      `${teacher.user.username} (VH ${teacher.user.vhNumber}) offered $12.50 on your Statistics II request. Message: Happy to help with regressions.`,
    );
    expect(mail!.textBody).toContain(`/student/offers/${request.id}`);
    const [log] = await t.db.select().from(emailLogs).where(eq(emailLogs.notificationId, notice!.id));
    expect(log).toMatchObject({ recipientEmail: student.user.email, notificationType: 'new_offer', status: 'queued' });
  });

  it('stores an empty message as null', async () => {
    const response = await bid(await signedInTeacher(t, [subjectId]), (await job()).id, {
      amountCents: 800,
      message: '   ',
    });
    expect(response.json().message).toBeNull();
  });

  it('stores $10.50 as 1050 cents and reads it back as 1050 cents, shown "$10.50"', async () => {
    const teacher = await signedInTeacher(t, [subjectId]);
    const request = await job();
    expect((await bid(teacher, request.id, { amountCents: 1050 })).json()).toMatchObject({ amountCents: 1050 });
    const stored = await t.db.execute<{ amount_cents: number }>(
      sql`select amount_cents from tutor_bids where request_id = ${request.id}`,
    );
    expect(stored.rows).toEqual([{ amount_cents: 1050 }]);
    const offers = await call(t, student, 'GET', `/api/requests/${request.id}/bids`);
    expect(offers.json().offers).toMatchObject([{ tutorId: teacher.user.id, amountCents: 1050 }]);
    expect((await call(t, student, 'GET', '/api/notifications')).json().notifications).toContainEqual(
      expect.objectContaining({
        requestId: request.id,
        bidAmountCents: 1050,
        message: expect.stringContaining('$10.50'),
      }),
    );
  });

  it.each([
    [{ budgetMinCents: 800, budgetMaxCents: 1500 }, 799, 'Your bid must be between 8 and 15.'],
    [{ budgetMinCents: 800, budgetMaxCents: 1500 }, 1501, 'Your bid must be between 8 and 15.'],
    [{ budgetMinCents: 850, budgetMaxCents: 1225 }, 1226, 'Your bid must be between 8.50 and 12.25.'],
    [
      { type: 'assignment' as const, budgetMinCents: 500, budgetMaxCents: 999_900 },
      499,
      'Your bid must be at least 5.',
    ],
  ])(
    'refuses an amount outside the budget %o (%d cents) with the Invalid Bid Amount text, writing nothing',
    async (budget, amountCents, message) => {
      const request = await job(budget);
      const before = await written();
      const response = await bid(await signedInTeacher(t, [subjectId]), request.id, { amountCents });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ code: 'VALIDATION_FAILED', message, fields: { amountCents: message } });
      expect(await written()).toEqual(before);
    },
  );

  it.each([800, 1500])('takes a bid of exactly the budget’s edge (%d cents)', async (amountCents) => {
    const request = await job({ budgetMinCents: 800, budgetMaxCents: 1500 });
    expect((await bid(await signedInTeacher(t, [subjectId]), request.id, { amountCents })).statusCode).toBe(201);
  });

  it('takes any amount from the minimum up when the maximum is open', async () => {
    const request = await job({ type: 'assignment', budgetMinCents: 500, budgetMaxCents: 99_900 });
    expect((await bid(await signedInTeacher(t, [subjectId]), request.id, { amountCents: 250_000 })).statusCode).toBe(
      201,
    );
  });

  it.each([
    // $10.005 is 1000.5 cents: not a whole cent, refused rather than rounded to $10.01.
    { amountCents: 1000.5 },
    // A body in dollars, as before cents, is no amount at all.
    { amount: 10.005 },
    { amountCents: 0 },
    { amountCents: -300 },
    { amountCents: '1000' },
    { amountCents: 100_000_001 },
    {},
  ])('refuses %o with "Please enter a valid bid amount.", writing nothing', async (payload) => {
    const request = await job();
    const before = await written();
    const response = await bid(await signedInTeacher(t, [subjectId]), request.id, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      message: 'Please enter a valid bid amount.',
      fields: { amountCents: 'Please enter a valid bid amount.' },
    });
    expect(await written()).toEqual(before);
  });

  it('refuses bids on expired, closed and accepted requests with a 409, writing nothing', async () => {
    const teacher = await signedInTeacher(t, [subjectId]);
    const cases = [
      [await job({ createdAt: hoursAgo(49) }), 'REQUEST_CLOSED'],
      [await job({ status: 'closed' }), 'REQUEST_CLOSED'],
      [await job({ status: 'completed' }), 'REQUEST_CLOSED'],
      [await job({ status: 'accepted' }), 'OFFER_ALREADY_ACCEPTED'],
    ] as const;
    const before = await written();
    for (const [request, code] of cases) {
      const response = await bid(teacher, request.id, { amountCents: 1000 });
      expect(response.statusCode).toBe(409);
      expect(response.json().code).toBe(code);
    }
    expect(await written()).toEqual(before);
  });

  it('takes one bid per teacher: the second is a 409 ALREADY_BID', async () => {
    const teacher = await signedInTeacher(t, [subjectId]);
    const request = await job();
    expect((await bid(teacher, request.id, { amountCents: 1000 })).statusCode).toBe(201);
    const before = await written();
    const again = await bid(teacher, request.id, { amountCents: 900 });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ code: 'ALREADY_BID', message: 'You have already placed a bid on this request.' });
    expect(await written()).toEqual(before);
  });

  it('lets the database decide two simultaneous bids by one teacher: one 201, one ALREADY_BID', async () => {
    const teacher = await signedInTeacher(t, [subjectId]);
    const request = await job();
    const responses = await Promise.all([
      bid(teacher, request.id, { amountCents: 1000 }),
      bid(teacher, request.id, { amountCents: 1100 }),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409]);
    expect(responses.find((response) => response.statusCode === 409)!.json().code).toBe('ALREADY_BID');
    expect(await t.db.$count(tutorBids, eq(tutorBids.requestId, request.id))).toBe(1);
    expect(await t.db.$count(studentNotifications, eq(studentNotifications.requestId, request.id))).toBe(1);
  });

  it('answers 404 to a teacher without the subject and for unknown jobs, 403 to students, 401 signed out', async () => {
    const request = await job();
    const before = await written();
    expect(
      (await bid(await signedInTeacher(t, [(await createSubject(t.db)).id]), request.id, { amountCents: 1000 }))
        .statusCode,
    ).toBe(404);
    expect(
      (await bid(await signedInTeacher(t, [subjectId]), '2b0b3b1e-6a4f-4f7e-9a55-000000000000', { amountCents: 1000 }))
        .statusCode,
    ).toBe(404);
    expect((await bid(student, request.id, { amountCents: 1000 })).statusCode).toBe(403);
    expect((await bid(undefined, request.id, { amountCents: 1000 })).statusCode).toBe(401);
    expect((await bid(await signedInTeacher(t, [subjectId]), 'nope', { amountCents: 1000 })).statusCode).toBe(400);
    expect(await written()).toEqual(before);
  });
});
