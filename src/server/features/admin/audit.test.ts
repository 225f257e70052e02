import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog } from '../../db/schema/admin.ts';
import { users } from '../../db/schema/auth.ts';
import { createSubAdmin } from '../../../../tests/support/factories.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { listAuditLog, recordAdminAction } from './audit.ts';

describe('the audit log', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** One recorded action by a new sub-admin, on an object of its own. */
  async function recorded() {
    const admin = await createSubAdmin(t.db);
    const objectId = randomUUID();
    await recordAdminAction(t.db, {
      actor: admin,
      action: 'report.resolve',
      objectType: 'user_report',
      objectId,
      before: { status: 'pending' },
      after: { status: 'resolved' },
    });
    const rowsOf = () => t.db.select().from(adminAuditLog).where(eq(adminAuditLog.objectId, objectId));
    return { admin, objectId, rowsOf };
  }

  it('is append-only in the database: an update, a delete and a truncate are refused by the database itself', async () => {
    const { rowsOf } = await recorded();
    const [before] = await rowsOf();
    /** The database's own refusal, under the query error the driver wraps it in. */
    const refusal = (query: PromiseLike<unknown>) =>
      Promise.resolve(query).then(
        () => 'done',
        (error: Error) => (error.cause instanceof Error ? error.cause : error).message,
      );
    expect(
      await refusal(t.db.update(adminAuditLog).set({ action: 'none' }).where(eq(adminAuditLog.id, before!.id))),
    ).toBe('admin_audit_log is append-only: UPDATE refused');
    expect(await refusal(t.db.delete(adminAuditLog).where(eq(adminAuditLog.id, before!.id)))).toBe(
      'admin_audit_log is append-only: DELETE refused',
    );
    expect(await refusal(t.db.execute(sql`truncate admin_audit_log`))).toBe(
      'admin_audit_log is append-only: TRUNCATE refused',
    );
    expect(await rowsOf()).toEqual([before]);
  });

  it("keeps only the actor's id once the account is gone", async () => {
    const { admin, objectId, rowsOf } = await recorded();
    const entryOf = async () => (await listAuditLog({ db: t.db })).items.find((item) => item.objectId === objectId);
    expect((await entryOf())?.actor).toEqual({ id: admin.id, name: admin.username });
    await t.db.delete(users).where(eq(users.id, admin.id));
    expect((await rowsOf())[0]?.actorId).toBe(admin.id);
    expect((await entryOf())?.actor).toEqual({ id: admin.id, name: null });
  });
});
