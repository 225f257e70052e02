import type { InjectOptions } from 'fastify';
import type { User } from '../../src/server/db/schema/auth.ts';
import { createSessionCookie, createTeacher, createUser } from './factories.ts';
import type { TestApp } from './test-app.ts';

// Signed-in callers for the API tests, and the one way they call the API.

export type Caller = { user: User; cookie: string };

export async function signIn(t: TestApp, user: User): Promise<Caller> {
  return { user, cookie: (await createSessionCookie(t.db, user.id)).header };
}

export const signedInStudent = async (t: TestApp) => signIn(t, await createUser(t.db, { role: 'student' }));

export const signedInTeacher = async (t: TestApp, subjectIds: string[]) =>
  signIn(t, await createTeacher(t.db, { subjectIds }));

/** An API call as this caller (undefined: signed out). */
export function call(
  t: TestApp,
  caller: Caller | undefined,
  method: InjectOptions['method'],
  url: string,
  payload?: InjectOptions['payload'],
  extra: Partial<InjectOptions> = {},
) {
  return t.app.inject({
    method,
    url,
    payload,
    ...extra,
    headers: { ...extra.headers, ...(caller ? { cookie: caller.cookie } : {}) },
  });
}
