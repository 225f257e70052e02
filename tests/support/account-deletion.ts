import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { accountDeletions } from '../../src/server/db/schema/account.ts';
import { accountErasureWork } from '../../src/server/features/account/erasure.ts';
import { runClaimedWorkOnce } from '../../src/server/platform/jobs/claimed-work.ts';
import { createStorage } from '../../src/server/platform/storage/storage.ts';
import { call, type Caller } from './callers.ts';
import { DEFAULT_TEST_PASSWORD, freshClientAddress } from './factories.ts';
import { formData, TINY_PNG } from './files.ts';
import type { ListeningTestApp } from './test-app.ts';
import { columnsHolding } from './traces.ts';

// "Delete my account", "Restore my account" and the erasure, as the tests of the account feature drive them.

/** A username and address found nowhere else, so a scan for them finds only this person. */
export const distinctivePerson = () => {
  const username = `erasable${randomBytes(6).toString('hex')}`;
  return { username, name: username, email: `${username}@example.org` };
};

/** Asserts a 2xx answer and returns its JSON. */
export const ok = async (response: Awaited<ReturnType<typeof call>>) => {
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json();
};

/** The calls and looks of a test file on its app (`app()` once its beforeAll has made it). */
export function accountDeletionKit(app: () => ListeningTestApp) {
  const log = { error: () => undefined };
  const storage = () => createStorage(app().config.storage, app().app.log);
  return {
    log,
    storage,
    deleteAccount: (caller: Caller | undefined, payload: object) =>
      call(app(), caller, 'POST', '/api/account/deletion', payload, { remoteAddress: freshClientAddress() }),
    restore: (payload: object) =>
      app().app.inject({
        method: 'POST',
        url: '/api/account/deletion/restore',
        payload,
        remoteAddress: freshClientAddress(),
      }),
    signInWith: (email: string, password = DEFAULT_TEST_PASSWORD) =>
      app().app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        payload: { email, password },
        remoteAddress: freshClientAddress(),
      }),
    deletionsOf: (userId: string) =>
      app().db.select().from(accountDeletions).where(eq(accountDeletions.userId, userId)),
    /** The grace period has passed: the clock of the deletion is moved back, as 14 days going by would. */
    passGracePeriod: (userId: string) =>
      app()
        .db.update(accountDeletions)
        .set({ eraseAfter: new Date(Date.now() - 1000) })
        .where(eq(accountDeletions.userId, userId)),
    runErasures: () =>
      runClaimedWorkOnce({
        db: app().db,
        work: accountErasureWork({ db: app().db, storage: storage(), erasureLog: app().config.erasureLog }),
        log,
      }),
    /** A profile picture of the caller's: its URL and storage key. */
    uploadAvatar: async (caller: Caller) => {
      const answer = await call(
        app(),
        caller,
        'POST',
        '/api/profile/avatar',
        formData({}, { field: 'avatar', bytes: TINY_PNG, filename: 'me.png', type: 'image/png' }),
      );
      const image = (await ok(answer)).image as string;
      return { image, key: image.replace('/api/files/', '') };
    },
    columnsHolding: (needle: string) => columnsHolding(app().db, needle),
  };
}
