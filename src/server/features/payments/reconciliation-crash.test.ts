import { eq, or } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_CARD } from '../../../../tests/support/checkout.ts';
import {
  createBid,
  createRequest,
  createSessionCookie,
  createSubAdmin,
  createSubject,
  createTeacher,
  createUser,
} from '../../../../tests/support/factories.ts';
import {
  SERVER_COMMAND,
  startServerProcess,
  startTestServerProcess,
  type ServerProcess,
} from '../../../../tests/support/server-process.ts';
import { TEST_ADMIN, TEST_AUTH_SECRET } from '../../../../tests/support/test-config.ts';
import * as schema from '../../db/schema/index.ts';
import { chatRooms } from '../../db/schema/chat.ts';
import { checkouts, ledgerTransactions, testProviderPayments } from '../../db/schema/payments.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';

// The server process killed between the provider's confirmation of a payment and the ledger's record of it (a
// test-only pause holds it there, so the kill lands at that point every time): after a restart the reconciliation
// job records the payment exactly once, through the pay's own record (docs/decisions/0043).

const START_TIMEOUT_MS = 120_000;
const PAUSED = 'payment confirmed by the provider; holding before its record';

describe('a server killed between the provider’s confirmation and the ledger write', () => {
  const servers: ServerProcess[] = [];
  let pool: pg.Pool | undefined;
  afterAll(async () => {
    await pool?.end();
    // The restarted server first, then the first one, whose stop also drops its PostgreSQL database.
    for (const server of servers.toReversed()) await server.stop();
  });

  it(
    'has the reconciliation record the payment once after a restart',
    async () => {
      const reconcileEverySecond = { PAYMENTS_RECONCILE_INTERVAL_SECONDS: '1' };
      const first = await startTestServerProcess({ PAYMENTS_PAUSE_BEFORE_RECORD: 'true', ...reconcileEverySecond });
      servers.push(first);
      pool = new pg.Pool(
        first.databaseUrl
          ? { connectionString: first.databaseUrl }
          : { host: first.dataDir, port: 5432, user: 'postgres', database: 'postgres' },
      );
      // The embedded database dies with the server: idle connections fail then, and reconnect after the restart.
      pool.on('error', () => undefined);
      const db = drizzle(pool, { schema, casing: 'snake_case' });

      const [student, subject] = [await createUser(db), await createSubject(db)];
      const tutor = await createTeacher(db, { subjectIds: [subject.id] });
      const request = await createRequest(db, { studentId: student.id, subjectId: subject.id });
      const bid = await createBid(db, { requestId: request.id, tutorId: tutor.id, amountCents: 2_000 });
      const cookie = (await createSessionCookie(db, student.id, TEST_AUTH_SECRET)).header;
      const post = (url: string, server: ServerProcess, body?: object) =>
        fetch(`${server.url}${url}`, {
          method: 'POST',
          headers: { cookie, origin: server.url, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
      const accepted = await post(`/api/requests/${request.id}/bids/${bid.id}/accept`, first);
      expect(accepted.status).toBe(200);
      const { checkoutId } = (await accepted.json()) as { checkoutId: string };

      // The pay reaches the provider, which confirms; the server is killed before it records anything.
      const paying = post(`/api/checkouts/${checkoutId}/pay`, first, { card: TEST_CARD }).catch(() => null);
      await expect.poll(() => first.output().includes(PAUSED), { timeout: 30_000 }).toBe(true);
      const exited = new Promise((resolve) => first.child.once('exit', resolve));
      first.child.kill('SIGKILL');
      await exited;
      expect(await paying).toBeNull();

      // The server comes back; the embedded database with it.
      const second = await startServerProcess(
        SERVER_COMMAND,
        {
          DATA_DIR: first.dataDir,
          AUTH_SECRET: TEST_AUTH_SECRET,
          ADMIN_EMAIL: TEST_ADMIN.email,
          ADMIN_PASSWORD: TEST_ADMIN.password,
          REQUIRE_EMAIL_CONFIRMATION: 'false',
          ...(first.databaseUrl ? { DATABASE_URL: first.databaseUrl } : {}),
          ...reconcileEverySecond,
        },
        START_TIMEOUT_MS,
      );
      servers.push(second);
      const postings = () =>
        db
          .select()
          .from(ledgerTransactions)
          .where(eq(ledgerTransactions.idempotencyKey, `payment:${checkoutId}`));
      const checkout = async () => (await db.select().from(checkouts).where(eq(checkouts.id, checkoutId)))[0]!;
      const books = await db
        .select()
        .from(testProviderPayments)
        .where(eq(testProviderPayments.idempotencyKey, `payment:${checkoutId}`));
      expect(books).toMatchObject([{ amountCents: 2_000, feeCents: 88 }]);
      // The dead pay's claim holds the checkout until its lease ends: moved to now, as the clock would move it.
      await db.update(checkouts).set({ claimedUntil: new Date() }).where(eq(checkouts.id, checkoutId));
      // The restarted server's reconciliation records the payment.
      await expect.poll(async () => (await checkout()).status, { timeout: 60_000 }).toBe('paid');
      expect(await checkout()).toMatchObject({ providerPaymentId: `test_payment:${checkoutId}`, claimToken: null });
      expect(await postings()).toHaveLength(1);
      const [job] = await db.select().from(tutoringRequests).where(eq(tutoringRequests.id, request.id));
      expect(job).toMatchObject({ status: 'accepted', acceptedBidId: bid.id });
      const rooms = await db
        .select()
        .from(chatRooms)
        .where(or(eq(chatRooms.participant1Id, student.id), eq(chatRooms.participant2Id, student.id)));
      expect(rooms).toHaveLength(1);

      // The provider and the ledger agree now, run after run.
      const admin = (await createSessionCookie(db, (await createSubAdmin(db, ['payments'])).id, TEST_AUTH_SECRET))
        .header;
      const report = await fetch(`${second.url}/api/admin/payments/reconciliation`, { headers: { cookie: admin } });
      expect(((await report.json()) as { report: object }).report).toMatchObject({ awaitingRecord: 0, mismatches: [] });
      expect(await postings()).toHaveLength(1);
    },
    START_TIMEOUT_MS * 2 + 120_000,
  );
});
