import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Auth } from '../features/auth/auth.ts';
import { AppError } from './errors.ts';

export type SessionUser = {
  id: string;
  email: string;
  username: string;
  role: 'student' | 'teacher';
  vhNumber: number;
  image: string | null;
};

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

export function registerSession(app: FastifyInstance, auth: Auth) {
  app.decorateRequest('getSessionUser', function (this: FastifyRequest) {
    const cached = sessionCache.get(this);
    if (cached) return cached;
    const lookup = auth.api
      .getSession({ headers: toHeaders(this.headers) })
      .then((result) => (result ? toSessionUser(result.user) : null));
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

export function toSessionUser(user: Record<string, unknown>): SessionUser {
  return {
    id: String(user.id),
    email: String(user.email),
    username: String(user.username),
    role: user.role === 'teacher' ? 'teacher' : 'student',
    vhNumber: Number(user.vhNumber),
    image: (user.image as string | null | undefined) ?? null,
  };
}
