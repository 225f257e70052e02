import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETED_USER_NAME } from '#shared/schemas/account-deletion.ts';
import { accountDeletions } from '../../db/schema/account.ts';
import { sessions, users } from '../../db/schema/auth.ts';
import { mailOutbox, notifications } from '../../db/schema/notifications.ts';
import { pushDeliveries, pushSubscriptions } from '../../db/schema/push.ts';
import { checkouts } from '../../db/schema/payments.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';
import { enqueueMail } from '../../platform/mail/outbox.ts';
import { call, signIn } from '../../../../tests/support/callers.ts';
import {
  DEFAULT_TEST_PASSWORD,
  createReviewedJob,
  createSubject,
  createSuperAdminCookie,
  createTeacher,
  createUser,
} from '../../../../tests/support/factories.ts';
import { formData, TINY_PNG } from '../../../../tests/support/files.ts';
import { writePaidJob } from '../../../../tests/support/paid-job.ts';
import { postRequest, requestForm } from '../../../../tests/support/request-posting.ts';
import {
  createListeningTestApp,
  createTestAppBeside,
  storedKeys,
  type ListeningTestApp,
} from '../../../../tests/support/test-app.ts';
import { DAY_MS } from '../../../../tests/support/time.ts';
import { accountDeletionKit, distinctivePerson, ok } from '../../../../tests/support/account-deletion.ts';

describe('Erasure after the grace period', () => {
  let t: ListeningTestApp;
  let subjectId: string;
  const {
    storage,
    deleteAccount,
    signInWith,
    deletionsOf,
    passGracePeriod,
    runErasures,
    uploadAvatar,
    columnsHolding,
  } = accountDeletionKit(() => t);

  beforeAll(async () => {
    t = await createListeningTestApp();
    subjectId = (await createSubject(t.db)).id;
  });
  afterAll(() => t.close());

  it('leaves no trace of the e-mail, the username or the files; the partner’s conversation stays with "Deleted user"', async () => {
    const person = distinctivePerson();
    const studentRow = await createUser(t.db, { role: 'student', ...person, fullName: 'Erasable Person' });
    const student = await signIn(t, studentRow);
    const tutor = await signIn(t, await createTeacher(t.db, { subjectIds: [subjectId] }));

    // A file in the partner's conversation, a picture, a review written, a notification, a device, mail sent; mail
    // and a push queued for the partner that name the person.
    const upload = await ok(
      await call(
        t,
        student,
        'POST',
        '/api/chat/uploads',
        formData({}, { field: 'file', bytes: TINY_PNG, filename: 'graph.png', type: 'image/png' }),
      ),
    );
    const message = await ok(
      await call(t, student, 'POST', '/api/chat/messages', {
        clientId: randomUUID(),
        receiverId: tutor.user.id,
        content: 'Here is my graph',
        attachment: { fileKey: upload.fileKey, originalFilename: upload.originalFilename },
      }),
    );
    const { key: avatarKey } = await uploadAvatar(student);
    const posted = await ok(
      await postRequest(
        t,
        student,
        requestForm({ type: 'tutoring', subjectId, description: 'Help with fractions', budgetMinCents: '800' }, [
          { bytes: TINY_PNG, filename: 'homework.png', type: 'image/png' },
        ]),
      ),
    );
    const [stored] = await t.db
      .select({ attachments: tutoringRequests.attachments })
      .from(tutoringRequests)
      .where(eq(tutoringRequests.id, posted.request.id));
    const attachmentKey = stored!.attachments[0]!.file_path;
    const { review } = await createReviewedJob(t.db, { pair: { studentId: studentRow.id, tutorId: tutor.user.id } });
    await t.db.insert(notifications).values({ userId: studentRow.id, message: 'Welcome aboard', link: '/chat' });
    await t.db.insert(notifications).values({
      userId: tutor.user.id,
      message: `New message from ${person.username}`,
      link: '/chat',
    });
    await t.db.insert(pushSubscriptions).values({
      userId: studentRow.id,
      sessionId: (await t.db.select().from(sessions).where(eq(sessions.userId, studentRow.id)))[0]!.id,
      endpoint: `https://push.example.net/${randomUUID()}`,
      p256dh: 'key',
      auth: 'secret',
    });
    await enqueueMail({ db: t.db, to: person.email, subject: 'Hello', text: `Hello ${person.username}` });
    // Mails and a push to the partner that name the person: one waiting (its server down), one kept after sending.
    const [waitingMail] = await t.db
      .insert(mailOutbox)
      .values({
        toAddress: tutor.user.email,
        subject: `New message from ${person.username}`,
        textBody: `${person.username} (${person.email}) wrote to you.`,
        htmlBody: `<p><b>${person.username}</b> wrote to you.</p>`,
        nextAttemptAt: new Date(Date.now() + DAY_MS),
      })
      .returning();
    await t.db.insert(mailOutbox).values({
      toAddress: tutor.user.email,
      subject: `${person.username} accepted your offer`,
      textBody: '',
      status: 'sent',
      sentAt: new Date(),
    });
    const tutorDevice = await t.db
      .insert(pushSubscriptions)
      .values({
        userId: tutor.user.id,
        sessionId: (await t.db.select().from(sessions).where(eq(sessions.userId, tutor.user.id)))[0]!.id,
        endpoint: `https://push.example.net/${randomUUID()}`,
        p256dh: 'key',
        auth: 'secret',
      })
      .returning();
    const [waitingPush] = await t.db
      .insert(pushDeliveries)
      .values({
        subscriptionId: tutorDevice[0]!.id,
        payload: { title: `New message from ${person.username}`, body: 'Here is my graph', url: '/chat' },
      })
      .returning();
    const contact = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { name: 'Erasable Person', email: person.email, subject: 'A question', message: 'About my lessons.' },
    });
    expect(contact.statusCode).toBeLessThan(300);
    expect(await columnsHolding(person.email)).not.toEqual([]);
    expect(await storedKeys(t, upload.fileKey)).toEqual([upload.fileKey]);

    await ok(await deleteAccount(student, { password: DEFAULT_TEST_PASSWORD }));
    // Not before the 14 days are over.
    await runErasures();
    expect((await deletionsOf(studentRow.id))[0]!.status).toBe('pending');

    await passGracePeriod(studentRow.id);
    expect(await runErasures()).toBeGreaterThanOrEqual(1);
    expect((await deletionsOf(studentRow.id))[0]).toMatchObject({ status: 'erased', erasedAt: expect.any(Date) });

    expect(await columnsHolding(person.email)).toEqual([]);
    expect(await columnsHolding(person.username)).toEqual([]);
    expect(await columnsHolding('Erasable Person')).toEqual([]);
    expect(await columnsHolding(upload.fileKey)).toEqual([]);
    expect(await storedKeys(t, upload.fileKey)).toEqual([]);
    expect(await storedKeys(t, avatarKey)).toEqual([]);
    expect(await columnsHolding(attachmentKey)).toEqual([]);
    expect(await storedKeys(t, attachmentKey)).toEqual([]);
    expect(await t.db.$count(pushSubscriptions, eq(pushSubscriptions.userId, studentRow.id))).toBe(0);
    expect(await t.db.$count(notifications, eq(notifications.userId, studentRow.id))).toBe(0);
    // The partner's waiting mail and push still carry the news, without the name.
    const [rewrittenMail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.id, waitingMail!.id));
    expect(rewrittenMail).toMatchObject({
      status: 'pending',
      subject: `New message from ${DELETED_USER_NAME}`,
      textBody: `${DELETED_USER_NAME} (erased-${studentRow.id}@erased.invalid) wrote to you.`,
      htmlBody: `<p><b>${DELETED_USER_NAME}</b> wrote to you.</p>`,
    });
    const [rewrittenPush] = await t.db.select().from(pushDeliveries).where(eq(pushDeliveries.id, waitingPush!.id));
    expect(rewrittenPush!.payload).toEqual({
      title: `New message from ${DELETED_USER_NAME}`,
      body: 'Here is my graph',
      url: '/chat',
    });

    // The row stays, naming nobody: the tutor's conversation and review are whole.
    const rooms = await ok(await call(t, tutor, 'GET', '/api/chat/rooms'));
    const room = rooms.rooms.find((entry: { id: string }) => entry.id === message.roomId);
    expect(room.partner).toMatchObject({ id: studentRow.id, username: DELETED_USER_NAME, image: null });
    const page = await ok(await call(t, tutor, 'GET', `/api/chat/rooms/${message.roomId}/messages`));
    expect(page.messages).toEqual([
      expect.objectContaining({ content: 'Here is my graph', attachment: null, isFileRemoved: true }),
    ]);
    const reviews = await ok(await call(t, tutor, 'GET', `/api/tutors/${tutor.user.id}/reviews`));
    expect(JSON.stringify(reviews)).toContain(review.id);
    expect(JSON.stringify(reviews)).not.toContain(person.username);
    expect((await signInWith(person.email)).statusCode).toBe(401);

    // The admins' list keeps the erasure by id only.
    const admin = await createSuperAdminCookie(t.db);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/admin/account-deletions',
      headers: { cookie: admin.header },
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().items).toEqual(
      expect.arrayContaining([expect.objectContaining({ userId: studentRow.id, username: null, status: 'erased' })]),
    );
    expect(list.body).not.toContain(person.email);
  });

  it('forgets news mailed to an earlier address, and leaves the make-up of what others keep whole', async () => {
    // A username that is also a word of HTML, of links and of an invitation.
    const row = await createUser(t.db, { username: 'title', email: 'title@example.org' });
    const partner = await signIn(t, await createUser(t.db));
    const [mail] = await t.db
      .insert(mailOutbox)
      .values({
        toAddress: partner.user.email,
        subject: 'New message from title',
        textBody: 'title (title@example.org) wrote to you: https://vh.example/title',
        htmlBody: '<p class="title"><a href="https://vh.example/title">title</a> wrote &amp; waits.</p>',
        calendar: 'BEGIN:VEVENT\r\nSUMMARY:Session with title\r\nORGANIZER;CN="title":mailto:title@example.org',
        nextAttemptAt: new Date(Date.now() + DAY_MS),
      })
      .returning();
    const [device] = await t.db
      .insert(pushSubscriptions)
      .values({
        userId: partner.user.id,
        sessionId: (await t.db.select().from(sessions).where(eq(sessions.userId, partner.user.id)))[0]!.id,
        endpoint: `https://push.example.net/${randomUUID()}`,
        p256dh: 'key',
        auth: 'secret',
      })
      .returning();
    const [push] = await t.db
      .insert(pushDeliveries)
      .values({ subscriptionId: device!.id, payload: { title: 'title wrote', body: 'Hi', url: '/title' } })
      .returning();

    // News mailed to the person at the address they had before this one.
    const [earlierMail] = await t.db
      .insert(mailOutbox)
      .values({
        toAddress: 'title.before@example.org',
        subject: 'A new offer',
        textBody: 'You have a new offer.',
        unsubscribeUserId: row.id,
        unsubscribeTopic: 'offers',
        status: 'sent',
        sentAt: new Date(),
      })
      .returning();

    await ok(await deleteAccount(await signIn(t, row), { password: DEFAULT_TEST_PASSWORD }));
    await passGracePeriod(row.id);
    await runErasures();
    expect(await t.db.$count(mailOutbox, eq(mailOutbox.id, earlierMail!.id))).toBe(0);
    const erasedEmail = `erased-${row.id}@erased.invalid`;
    const [rewritten] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.id, mail!.id));
    expect(rewritten).toMatchObject({
      subject: `New message from ${DELETED_USER_NAME}`,
      textBody: `${DELETED_USER_NAME} (${erasedEmail}) wrote to you: https://vh.example/title`,
      htmlBody: `<p class="title"><a href="https://vh.example/title">${DELETED_USER_NAME}</a> wrote &amp; waits.</p>`,
      calendar: `BEGIN:VEVENT\r\nSUMMARY:Session with ${DELETED_USER_NAME}\r\nORGANIZER;CN="${DELETED_USER_NAME}":mailto:${erasedEmail}`,
    });
    const [pushed] = await t.db.select().from(pushDeliveries).where(eq(pushDeliveries.id, push!.id));
    expect(pushed!.payload).toEqual({ title: `${DELETED_USER_NAME} wrote`, body: 'Hi', url: '/title' });
  });

  it('waits, saying why, while money came to be held for the user during the grace period', async () => {
    const tutorRow = await createTeacher(t.db, { subjectIds: [subjectId] });
    await ok(await deleteAccount(await signIn(t, tutorRow), { password: DEFAULT_TEST_PASSWORD }));
    const student = await createUser(t.db, { role: 'student' });
    await writePaidJob(t.db, { studentId: student.id, tutorId: tutorRow.id });
    await passGracePeriod(tutorRow.id);
    await runErasures();
    const [deletion] = await deletionsOf(tutorRow.id);
    expect(deletion).toMatchObject({ status: 'pending', blockedReason: 'money' });
    expect(deletion!.eraseAfter.getTime()).toBeGreaterThan(Date.now() + DAY_MS / 2);
    const [user] = await t.db.select().from(users).where(eq(users.id, tutorRow.id));
    expect(user).toMatchObject({ email: tutorRow.email, erasedAt: null });
  });

  it('never both erases a tutor and records money paid for their job meanwhile: one waits or is refused', async () => {
    const outcomes = { erased: 0, paid: 0 };
    for (let round = 0; round < 15; round++) {
      const tutorRow = await createTeacher(t.db, { subjectIds: [subjectId] });
      await ok(await deleteAccount(await signIn(t, tutorRow), { password: DEFAULT_TEST_PASSWORD }));
      await passGracePeriod(tutorRow.id);
      const student = await createUser(t.db, { role: 'student' });
      // A student's payment for a job of the tutor's, as a checkout completes it: in one transaction.
      const [, payment] = await Promise.allSettled([
        runErasures(),
        t.db.transaction((tx) => writePaidJob(tx, { studentId: student.id, tutorId: tutorRow.id })),
      ]);
      const [deletion] = await deletionsOf(tutorRow.id);
      const [user] = await t.db.select().from(users).where(eq(users.id, tutorRow.id));
      const paidCheckouts = await t.db.$count(checkouts, eq(checkouts.tutorId, tutorRow.id));
      if (deletion!.status === 'erased') {
        outcomes.erased++;
        expect(user!.erasedAt).not.toBeNull();
        expect(payment.status).toBe('rejected');
        expect(paidCheckouts).toBe(0);
      } else {
        outcomes.paid++;
        expect(deletion).toMatchObject({ status: 'pending', blockedReason: 'money' });
        expect(user).toMatchObject({ email: tutorRow.email, erasedAt: null });
        expect(payment.status).toBe('fulfilled');
        expect(paidCheckouts).toBe(1);
      }
    }
    expect(outcomes.erased + outcomes.paid).toBe(15);
  }, 180_000);

  it('erases again at start an account that a backup from before its erasure brought back', async () => {
    const person = distinctivePerson();
    const row = await createUser(t.db, { role: 'student', ...person });
    const user = await signIn(t, row);
    const { image, key: avatarKey } = await uploadAvatar(user);
    await ok(await deleteAccount(user, { password: DEFAULT_TEST_PASSWORD }));
    await passGracePeriod(row.id);
    await runErasures();
    expect(await columnsHolding(person.email)).toEqual([]);

    // What restoring a backup made during the grace period brings back: the row as it was, its deletion pending,
    // its picture in storage.
    await t.db
      .update(users)
      .set({ email: person.email, username: person.username, name: person.name, image, erasedAt: null })
      .where(eq(users.id, row.id));
    await t.db
      .update(accountDeletions)
      .set({ status: 'pending', erasedAt: null, eraseAfter: new Date(Date.now() + 7 * DAY_MS) })
      .where(eq(accountDeletions.userId, row.id));
    const picture = path.join(t.config.dataDir, 'restored.png');
    await writeFile(picture, TINY_PNG);
    await storage().put(avatarKey, picture, 'image/png');
    expect(await columnsHolding(person.email)).not.toEqual([]);

    const restarted = await createTestAppBeside(t);
    await restarted.close();
    expect(await columnsHolding(person.email)).toEqual([]);
    expect(await columnsHolding(person.username)).toEqual([]);
    expect(await storedKeys(t, avatarKey)).toEqual([]);
    expect((await deletionsOf(row.id))[0]).toMatchObject({ status: 'erased' });
    expect(await readFile(t.config.erasureLog, 'utf8')).toContain(row.id);
  });
});
