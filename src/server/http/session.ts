import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sessionUserSchema, type SessionUser } from '#shared/schemas/session.ts';
import { AppError } from './errors.ts';

export type { SessionUser };

/**
 * Finds the session of a request's cookies; null when signed out. Built once in app.ts from the auth feature,
 * so http/ and platform/ know no feature.
 */
export type SessionResolver = (headers: Headers) => Promise<{ user: SessionUser; sessionId: string } | null>;

type ResolvedSession = NonNullable<Awaited<ReturnType<SessionResolver>>>;

/** How long a resolved session is reused without asking the database again (an ended one is forgotten at once). */
export const SESSION_CACHE_MS = 5_000;
const SESSION_CACHE_ENTRIES = 10_000;

/**
 * Reuses a session resolved in the last few seconds, by the cookie value that named it (one valid only once the
 * resolver has checked its signature), so an API call costs its own queries and not the session's too. The app
 * calls `forget` on every process when a session ends (sign-out, password reset, suspension, expiry), through the
 * bus that also closes its sockets. What else could change meanwhile is the picture in the cached user, which no
 * server rule reads.
 */
export function createSessionCache(resolve: SessionResolver, keyOf: (headers: Headers) => string | null) {
  const byKey = new Map<string, { session: ResolvedSession; until: number }>();
  const keysBySession = new Map<string, string>();
  // A lookup that started before a session ended may hold that session: it is answered but not kept.
  let endedSessions = 0;

  const remember = (key: string, session: ResolvedSession) => {
    byKey.delete(key);
    byKey.set(key, { session, until: Date.now() + SESSION_CACHE_MS });
    keysBySession.set(session.sessionId, key);
    // Oldest first: a Map keeps insertion order.
    for (const [oldestKey, oldest] of byKey) {
      if (byKey.size <= SESSION_CACHE_ENTRIES && oldest.until > Date.now()) break;
      byKey.delete(oldestKey);
      keysBySession.delete(oldest.session.sessionId);
    }
  };

  const resolveCached: SessionResolver = async (headers) => {
    const key = keyOf(headers);
    if (!key) return resolve(headers);
    const cached = byKey.get(key);
    if (cached && cached.until > Date.now()) return cached.session;
    const endedBefore = endedSessions;
    const session = await resolve(headers);
    if (session && endedSessions === endedBefore) remember(key, session);
    return session;
  };

  const forget = (sessionId: string) => {
    endedSessions++;
    const key = keysBySession.get(sessionId);
    if (key === undefined) return;
    keysBySession.delete(sessionId);
    byKey.delete(key);
  };
  /** Drops every kept session: the notices of ended ones may have been lost (the fan-out was down). */
  const forgetAll = () => {
    endedSessions++;
    byKey.clear();
    keysBySession.clear();
  };
  return { resolve: resolveCached, forget, forgetAll };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Resolves the signed-in user from the session cookie once per request; null when signed out. */
    getSessionUser(): Promise<SessionUser | null>;
    /** The request's session: its user and id (the id names a device in the account settings). */
    getSession(): Promise<{ user: SessionUser; sessionId: string } | null>;
  }
}

/** The signed-in user, or a 401 that the error handler answers with "Not authenticated". */
export async function requireUser(request: FastifyRequest): Promise<SessionUser> {
  const user = await request.getSessionUser();
  if (!user) throw new AppError('UNAUTHENTICATED');
  return user;
}

const roleMessages: Record<SessionUser['role'], string> = {
  student: 'Only students can do this.',
  teacher: 'Only teachers can do this.',
};

/** The signed-in user in this role: signed out 401, the other role 403. */
export async function requireRole(request: FastifyRequest, role: SessionUser['role']) {
  const user = await requireUser(request);
  if (user.role !== role) throw new AppError('FORBIDDEN', { message: roleMessages[role] });
  return user;
}

/** The signed-in user and the id of their session, or a 401 like requireUser. */
export async function requireSession(request: FastifyRequest) {
  const session = await request.getSession();
  if (!session) throw new AppError('UNAUTHENTICATED');
  return session;
}

export function registerSession(app: FastifyInstance, resolveSession: SessionResolver) {
  app.decorateRequest('getSession', function (this: FastifyRequest) {
    const cached = sessionCache.get(this);
    if (cached) return cached;
    const lookup = resolveSession(toHeaders(this.headers));
    sessionCache.set(this, lookup);
    return lookup;
  });
  app.decorateRequest('getSessionUser', async function (this: FastifyRequest) {
    return (await this.getSession())?.user ?? null;
  });
}

const sessionCache = new WeakMap<FastifyRequest, ReturnType<SessionResolver>>();

/** Node's header object as a Fetch API Headers, as better-auth expects. */
export function toHeaders(raw: FastifyRequest['headers']) {
  const headers = new Headers();
  for (const [key, value] of Object.entries(raw)) {
    if (value !== undefined) headers.append(key, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

/** The session user's fields out of the auth library's user record (extra fields dropped). */
export function toSessionUser(user: Record<string, unknown>): SessionUser {
  return sessionUserSchema.parse(user);
}
