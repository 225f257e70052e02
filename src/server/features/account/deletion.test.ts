import { randomUUID } from 'node:crypto';
import { appendFile, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorMessages } from '#shared/errors.ts';
import { accountDeletionMessages } from '#shared/schemas/account-deletion.ts';
import { cursorMicros } from '../../db/keyset.ts';
import { accountDeletions } from '../../db/schema/account.ts';
import { storedFiles, usageCounters } from '../../db/schema/limits.ts';
import { sessions, users } from '../../db/schema/auth.ts';
import { paymentAdjustments } from '../../db/schema/payments.ts';
import { tutorBids, tutoringRequests } from '../../db/schema/requests.ts';
import { runClaimedWorkOnce } from '../../platform/jobs/claimed-work.ts';
import { call, signIn } from '../../../../tests/support/callers.ts';
import {
  DEFAULT_TEST_PASSWORD,
  createBid,
  createRequest,
  createSubAdmin,
  createSubject,
  createSuperAdminCookie,
  createTeacher,
  createUser,
  freshClientAddress,
} from '../../../../tests/support/factories.ts';
import { startUpload } from '../../../../tests/support/slow-upload.ts';
import { createPaidJob, writePaidJob } from '../../../../tests/support/paid-job.ts';
import {
  createListeningTestApp,
  createTestAppBeside,
  type ListeningTestApp,
} from '../../../../tests/support/test-app.ts';
import { DAY_MS, eventually } from '../../../../tests/support/time.ts';
import { accountErasureWork } from './erasure.ts';
import { accountDeletionKit, distinctivePerson, ok } from '../../../../tests/support/account-deletion.ts';

describe('Delete my account', () => {
  let t: ListeningTestApp;
  let subjectId: string;
  const { log, storage, deleteAccount, restore, signInWith, deletionsOf, passGracePeriod, runErasures, uploadAvatar } =
    accountDeletionKit(() => t);

  beforeAll(async () => {
    t = await createListeningTestApp();
    subjectId = (await createSubject(t.db)).id;
  });
  afterAll(() => t.close());

  describe('asking', () => {
    it('locks the account at once: sessions and sockets end, hidden from search and the directory, requests closed, offers withdrawn', async () => {
      const teacherRow = await createTeacher(t.db, { subjectIds: [subjectId], ...distinctivePerson() });
      const teacher = await signIn(t, teacherRow);
      const otherDevice = await signIn(t, teacherRow);
      const ended = new Promise<boolean>((resolve) => {
        void t.connect(otherDevice.cookie).then((socket) => socket.once('disconnect', () => resolve(true)));
      });
      const searcher = await signIn(t, await createUser(t.db, { role: 'student' }));
      const ownRequest = await createRequest(t.db, { studentId: teacherRow.id, subjectId });
      const othersRequest = await createRequest(t.db, { studentId: searcher.user.id, subjectId });
      const bid = await createBid(t.db, { requestId: othersRequest.id, tutorId: teacherRow.id, amountCents: 1500 });
      const found = async () =>
        (await ok(await call(t, searcher, 'GET', `/api/search/experts?vh=${teacherRow.vhNumber}`))).results.some(
          (result: { id: string }) => result.id === teacherRow.id,
        );
      expect(await found()).toBe(true);

      const response = await deleteAccount(teacher, { password: DEFAULT_TEST_PASSWORD });
      expect(response.statusCode, response.body).toBe(202);
      const { requestedAt, eraseAfter } = response.json<{ requestedAt: string; eraseAfter: string }>();
      expect(Date.parse(eraseAfter) - Date.parse(requestedAt)).toBe(14 * DAY_MS);

      expect(await ended).toBe(true);
      expect(await t.db.$count(sessions, eq(sessions.userId, teacherRow.id))).toBe(0);
      expect((await call(t, teacher, 'GET', '/api/profile')).statusCode).toBe(401);
      expect(await found()).toBe(false);
      const directory = await ok(await call(t, searcher, 'GET', `/api/tutors?subjects=${subjectId}`));
      expect(directory.tutors.map((tutor: { id: string }) => tutor.id)).not.toContain(teacherRow.id);
      expect((await call(t, searcher, 'GET', `/api/tutors/${teacherRow.id}`)).statusCode).toBe(404);
      const [request] = await t.db.select().from(tutoringRequests).where(eq(tutoringRequests.id, ownRequest.id));
      expect(request!.status).toBe('closed');
      expect(await t.db.$count(tutorBids, eq(tutorBids.id, bid.id))).toBe(0);

      // Signing in again is refused with the way back named.
      const signedIn = await signInWith(teacherRow.email);
      expect(signedIn.statusCode).toBe(403);
      expect(signedIn.json()).toMatchObject({
        code: 'ACCOUNT_DELETION_PENDING',
        message: errorMessages.ACCOUNT_DELETION_PENDING,
      });
    });

    it('refuses a request whose files were still coming in when the account was locked, and posts nothing', async () => {
      const row = await createUser(t.db, { role: 'student' });
      const [posting, deleting] = [await signIn(t, row), await signIn(t, row)];
      const upload = startUpload(t.url, posting.cookie, {
        path: '/api/requests',
        field: 'attachments',
        fields: { type: 'tutoring', subjectId, description: 'Help with fractions, please', budgetMinCents: '800' },
      });
      // The post's session is checked as its first bytes arrive (the check counts it against the student's limit);
      // then the account is locked from another device while its file is still coming in.
      await eventually(async () => (await t.db.$count(usageCounters, eq(usageCounters.key, `requests:${row.id}`))) > 0);
      await ok(await deleteAccount(deleting, { password: DEFAULT_TEST_PASSWORD }));
      const answer = await upload.finish();
      expect(answer.status, JSON.stringify(answer.body)).toBe(401);
      expect(await t.db.$count(tutoringRequests, eq(tutoringRequests.studentId, row.id))).toBe(0);
    });

    it.each([
      ['a chat file', {}],
      ['an avatar', { path: '/api/profile/avatar', field: 'avatar' }],
    ])('refuses %s still coming in when the account was locked, and keeps nothing of it', async (_, target) => {
      const row = await createUser(t.db, { role: 'student' });
      const [uploading, deleting] = [await signIn(t, row), await signIn(t, row)];
      const incomingDir = path.join(t.config.dataDir, 'incoming-uploads');
      const storedKeys = async () => {
        const keys: string[] = [];
        for await (const { key } of storage().list()) keys.push(key);
        return keys.sort();
      };
      const keysBefore = await storedKeys();
      const upload = startUpload(t.url, uploading.cookie, target);
      // Its session was checked before its first bytes were written to disk.
      await eventually(async () => (await readdir(incomingDir)).length > 0);
      await ok(await deleteAccount(deleting, { password: DEFAULT_TEST_PASSWORD }));
      const answer = await upload.finish();
      expect(answer.status, JSON.stringify(answer.body)).toBe(401);
      expect(await t.db.$count(storedFiles, eq(storedFiles.ownerId, row.id))).toBe(0);
      expect(await storedKeys()).toEqual(keysBefore);
      const [after] = await t.db.select({ image: users.image }).from(users).where(eq(users.id, row.id));
      expect(after!.image).toBe(row.image);
    });

    it('needs a session (401), the password (400 with its message) and writes nothing on a refusal', async () => {
      const user = await signIn(t, await createUser(t.db));
      expect((await deleteAccount(undefined, { password: DEFAULT_TEST_PASSWORD })).statusCode).toBe(401);
      const missing = await deleteAccount(user, {});
      expect(missing.statusCode).toBe(400);
      expect(missing.json().fields).toEqual({ password: accountDeletionMessages.passwordRequired });
      const wrong = await deleteAccount(user, { password: 'not-my-password' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().fields.password).toBeTruthy();
      expect(await deletionsOf(user.user.id)).toEqual([]);
      expect((await call(t, user, 'GET', '/api/profile')).statusCode).toBe(200);
    });

    it('refuses, in plain words, while money is held for a job of the user, and writes nothing', async () => {
      const student = await signIn(t, await createUser(t.db, { role: 'student' }));
      const tutor = await createTeacher(t.db, { subjectIds: [subjectId] });
      await writePaidJob(t.db, { studentId: student.user.id, tutorId: tutor.id });
      const response = await deleteAccount(student, { password: DEFAULT_TEST_PASSWORD });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({
        code: 'ACCOUNT_NOT_DELETABLE',
        message: accountDeletionMessages.blocked.money,
      });
      expect(await deletionsOf(student.user.id)).toEqual([]);
      expect((await call(t, student, 'GET', '/api/profile')).statusCode).toBe(200);
    });

    it('takes a student whose paid job is completed, and its tutor once their share is paid out', async () => {
      const job = await createPaidJob(t, { subjectId });
      const password = { password: DEFAULT_TEST_PASSWORD };
      expect((await call(t, job.student, 'POST', `/api/requests/${job.requestId}/complete`)).statusCode).toBe(200);
      // Money going back to the student after the release waits until it is back.
      const [adjustment] = await t.db
        .insert(paymentAdjustments)
        .values({
          requestId: job.requestId,
          checkoutId: job.checkoutId,
          studentId: job.student.user.id,
          tutorId: job.tutor.user.id,
          adminId: (await createSubAdmin(t.db, ['payments'])).id,
          note: 'Half of it, as agreed.',
          amountCents: 1_000,
          tutorCents: 850,
          commissionCents: 150,
        })
        .returning();
      const adjusting = await deleteAccount(job.student, password);
      expect([adjusting.statusCode, adjusting.json().message]).toEqual([409, accountDeletionMessages.blocked.money]);
      await t.db.delete(paymentAdjustments).where(eq(paymentAdjustments.id, adjustment!.id));
      // What the student paid is history: nothing is owed to or by them any more.
      await ok(await deleteAccount(job.student, password));
      expect(await deletionsOf(job.student.user.id)).toMatchObject([{ status: 'pending' }]);

      // The tutor's released share is theirs until it is paid out.
      const unpaid = await deleteAccount(job.tutor, password);
      expect([unpaid.statusCode, unpaid.json().message]).toEqual([409, accountDeletionMessages.blocked.money]);
      expect(await deletionsOf(job.tutor.user.id)).toEqual([]);
      await ok(await call(t, job.tutor, 'POST', '/api/earnings/adult-confirmation', { confirmed: true }));
      const payout = () =>
        call(t, job.tutor, 'POST', '/api/earnings/payouts', {}, { headers: { 'idempotency-key': payoutKey } });
      const payoutKey = randomUUID();
      await ok(await payout());
      expect((await ok(await payout())).status).toBe('paid');
      await ok(await deleteAccount(job.tutor, password));
      expect(await deletionsOf(job.tutor.user.id)).toMatchObject([{ status: 'pending' }]);
    });

    it('answers presses racing each other with the one deletion, never an error', async () => {
      const user = await signIn(t, await createUser(t.db));
      const presses = await Promise.all(
        Array.from({ length: 3 }, () => deleteAccount(user, { password: DEFAULT_TEST_PASSWORD })),
      );
      // Each press is answered with the deletion, or as signed out when the first ended its session before it began.
      expect(presses.map((press) => press.statusCode).every((status) => status === 202 || status === 401)).toBe(true);
      const accepted = presses.filter((press) => press.statusCode === 202).map((press) => press.json());
      expect(accepted.length).toBeGreaterThan(0);
      expect(new Set(accepted.map((answer) => JSON.stringify(answer))).size).toBe(1);
      expect(await deletionsOf(user.user.id)).toMatchObject([{ status: 'pending' }]);
    });

    it('refuses admins: the super-admin’s account is ADMIN_EMAIL’s, a sub-admin’s goes once the role does', async () => {
      const superAdmin = await createSuperAdminCookie(t.db);
      const subAdmin = await signIn(t, await createSubAdmin(t.db, ['users']));
      const admins = [
        { userId: superAdmin.userId, cookie: superAdmin.header },
        { userId: subAdmin.user.id, cookie: subAdmin.cookie },
      ];
      for (const { userId, cookie } of admins) {
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/account/deletion',
          payload: { password: DEFAULT_TEST_PASSWORD },
          headers: { cookie },
          remoteAddress: freshClientAddress(),
        });
        expect(response.statusCode).toBe(403);
        expect(response.json().message).toBe(accountDeletionMessages.admin);
        expect(await deletionsOf(userId)).toEqual([]);
      }
    });
  });

  describe('restoring within the grace period', () => {
    it('gives the account back with the address and password; signing in works again', async () => {
      const row = await createUser(t.db, distinctivePerson());
      await ok(await deleteAccount(await signIn(t, row), { password: DEFAULT_TEST_PASSWORD }));

      const wrong = await restore({ email: row.email, password: 'wrong-password' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().fields).toEqual({ password: accountDeletionMessages.wrongCredentials });
      expect((await restore({ email: row.email })).statusCode).toBe(400);
      expect((await signInWith(row.email)).statusCode).toBe(403);

      const restored = await restore({ email: row.email, password: DEFAULT_TEST_PASSWORD });
      expect(restored.statusCode, restored.body).toBe(200);
      expect(restored.json()).toEqual({ message: accountDeletionMessages.restored });
      expect((await signInWith(row.email)).statusCode).toBe(200);
      const [deletion] = await deletionsOf(row.id);
      expect(deletion).toMatchObject({ status: 'restored', restoredAt: expect.any(Date) });

      // Restored, it is not erased when the 14 days would have ended, and cannot be restored twice.
      await passGracePeriod(row.id);
      await runErasures();
      const [user] = await t.db.select().from(users).where(eq(users.id, row.id));
      expect(user).toMatchObject({ email: row.email, erasedAt: null, deletionRequestedAt: null });
      expect((await restore({ email: row.email, password: DEFAULT_TEST_PASSWORD })).statusCode).toBe(400);
    });

    it('keeps an account restored after an erasure that failed half-way: no start erases it later', async () => {
      const row = await createUser(t.db, distinctivePerson());
      const caller = await signIn(t, row);
      await uploadAvatar(caller);
      await ok(await deleteAccount(caller, { password: DEFAULT_TEST_PASSWORD }));
      await passGracePeriod(row.id);
      // The file store fails while the erasure removes the files, after it logged the erasure.
      const failingStorage = { ...storage(), delete: () => Promise.reject(new Error('the file store is down')) };
      await runClaimedWorkOnce({
        db: t.db,
        work: accountErasureWork({ db: t.db, storage: failingStorage, erasureLog: t.config.erasureLog }),
        log,
      });
      expect((await deletionsOf(row.id))[0]).toMatchObject({ status: 'pending' });
      // A try after it logged the erasure too, and the node ended before it could record anything.
      await appendFile(t.config.erasureLog, `${row.id}\n`);

      const restored = await restore({ email: row.email, password: DEFAULT_TEST_PASSWORD });
      expect(restored.statusCode, restored.body).toBe(200);
      const restarted = await createTestAppBeside(t);
      await restarted.close();
      const [user] = await t.db.select().from(users).where(eq(users.id, row.id));
      expect(user).toMatchObject({ email: row.email, username: row.username, erasedAt: null });
      expect((await signInWith(row.email)).statusCode).toBe(200);
    });

    it('keeps an account restored while an erasure whose lease lapsed was still at work: its holder records nothing', async () => {
      const row = await createUser(t.db, distinctivePerson());
      const caller = await signIn(t, row);
      await uploadAvatar(caller);
      await ok(await deleteAccount(caller, { password: DEFAULT_TEST_PASSWORD }));
      await passGracePeriod(row.id);
      // An erasure that stalls while it deletes the files, past its lease.
      let stalled!: () => void;
      let resume!: () => void;
      const reachedStore = new Promise<void>((resolve) => (stalled = resolve));
      const stallingStorage = {
        ...storage(),
        delete: () => {
          stalled();
          return new Promise<void>((resolve) => (resume = resolve));
        },
      };
      const lateErasure = runClaimedWorkOnce({
        db: t.db,
        work: accountErasureWork({ db: t.db, storage: stallingStorage, erasureLog: t.config.erasureLog }),
        log,
      });
      await reachedStore;
      await t.db
        .update(accountDeletions)
        .set({ claimedUntil: new Date(Date.now() - 1000) })
        .where(eq(accountDeletions.userId, row.id));
      const restored = await restore({ email: row.email, password: DEFAULT_TEST_PASSWORD });
      expect(restored.statusCode, restored.body).toBe(200);
      resume();
      await lateErasure;

      const [user] = await t.db.select().from(users).where(eq(users.id, row.id));
      expect(user).toMatchObject({ email: row.email, erasedAt: null, deletionRequestedAt: null });
      expect((await deletionsOf(row.id))[0]).toMatchObject({ status: 'restored' });
      const lines = (await readFile(t.config.erasureLog, 'utf8')).split('\n');
      expect(lines.filter((line) => line.endsWith(row.id)).at(-1)).toBe(`-${row.id}`);
    });

    it('counts wrong passwords per address, whatever the client: the 10th pauses restoring as it pauses signing in', async () => {
      const row = await createUser(t.db, distinctivePerson());
      await ok(await deleteAccount(await signIn(t, row), { password: DEFAULT_TEST_PASSWORD }));
      for (let guess = 0; guess < 10; guess++) {
        expect((await restore({ email: row.email, password: `guess-${guess}` })).statusCode).toBe(400);
      }
      const paused = await restore({ email: row.email, password: DEFAULT_TEST_PASSWORD });
      expect(paused.statusCode).toBe(429);
      expect(paused.json().code).toBe('ACCOUNT_LOCKED');
      const [deletion] = await deletionsOf(row.id);
      expect(deletion).toMatchObject({ status: 'pending', restoredAt: null });
    });
  });

  describe('the admins’ list', () => {
    it('pages the admins’ list newest first, and answers a cursor that is not one with 400', async () => {
      for (let n = 0; n < 3; n++) {
        const row = await createUser(t.db);
        await ok(await deleteAccount(await signIn(t, row), { password: DEFAULT_TEST_PASSWORD }));
      }
      const admin = await createSuperAdminCookie(t.db);
      const list = (query = '') =>
        t.app.inject({ method: 'GET', url: `/api/admin/account-deletions${query}`, headers: { cookie: admin.header } });
      const all = (await ok(await list())).items as { id: string; requestedAt: string }[];
      const times = all.map((item) => item.requestedAt);
      expect(times).toEqual([...times].sort().reverse());
      // A cursor from the first row on: the rest of the list, without it.
      const [first] = await t.db
        .select({ micros: cursorMicros(accountDeletions.requestedAt) })
        .from(accountDeletions)
        .where(eq(accountDeletions.id, all[0]!.id));
      const rest = (await ok(await list(`?cursor=${first!.micros}_${all[0]!.id}`))).items as { id: string }[];
      expect(rest.slice(0, all.length - 1).map((item) => item.id)).toEqual(all.slice(1).map((item) => item.id));
      for (const cursor of ['2020-01-01_' + '-'.repeat(36), '1_' + 'f'.repeat(36), '-1e99_x', 'now']) {
        const refused = await list(`?cursor=${encodeURIComponent(cursor)}`);
        expect(refused.statusCode, cursor).toBe(400);
      }
    });

    it('answers 401 signed out and 403 to a user who is not an admin for the admins’ list', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/admin/account-deletions' })).statusCode).toBe(401);
      const user = await signIn(t, await createUser(t.db));
      expect((await call(t, user, 'GET', '/api/admin/account-deletions')).statusCode).toBe(403);
    });
  });
});
