import type { InjectOptions } from 'fastify';
import type { User } from '../../src/server/db/schema/auth.ts';
import { createSessionCookie, createTeacher, createUser, freshClientAddress } from './factories.ts';
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

/**
 * Signs in through the sign-in form's API of a running server (`headers`: what the page would add, e.g. its Origin);
 * resolves with the answer and the Cookie header of the session it set.
 */
export async function signInOverHttp(
  url: string,
  credentials: { email: string; password: string },
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(credentials),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((setCookie) => setCookie.split(';')[0])
    .join('; ');
  return { response, cookie };
}

/** What the sign-up form sends for a student `name` at `name`@example.com with the password secret1. */
export const studentRegistration = (name: string) => ({
  name,
  email: `${name}@example.com`,
  password: 'secret1',
  role: 'student',
  acceptTerms: true,
  acceptPrivacy: true,
  confirmAge: true,
});

/** Registers a student through the sign-up form's API (`studentRegistration`). */
export const registerStudent = (t: TestApp, name: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/accounts/register',
    payload: studentRegistration(name),
    remoteAddress: freshClientAddress(),
  });
