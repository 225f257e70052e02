import type { SessionUser } from '#web/lib/auth-client.ts';

/** What the top bar calls the user: the username, else the name, else the e-mail. */
export function displayName(user: SessionUser) {
  return user.username || user.name || user.email;
}
