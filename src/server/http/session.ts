import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sessionUserSchema, type SessionUser } from '#shared/schemas/session.ts';
import { AppError } from './errors.ts';

export type { SessionUser };

/**
 * Finds the session of a request's cookies; null when signed out. Built once in app.ts from the auth feature,
 * so http/ and platform/ know no feature.
 */
export type SessionResolver = (headers: Headers) => Promise<{ user: SessionUser; sessionId: string } | null>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Resolves the signed-in user from the session cookie once per request; null when signed out. */
    getSessionUser(): Promise<SessionUser | null>;
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

export function registerSession(app: FastifyInstance, resolveSession: SessionResolver) {
  app.decorateRequest('getSessionUser', function (this: FastifyRequest) {
    const cached = sessionCache.get(this);
    if (cached) return cached;
    const lookup = resolveSession(toHeaders(this.headers)).then((result) => result?.user ?? null);
    sessionCache.set(this, lookup);
    return lookup;
  });
}

const sessionCache = new WeakMap<FastifyRequest, Promise<SessionUser | null>>();

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
