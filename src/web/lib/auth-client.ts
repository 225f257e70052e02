import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SessionUser } from '#shared/schemas/session.ts';
import { apiFetch } from './api.ts';
import { queryClient, sessionQueryKey } from './query-client.ts';

export type { SessionUser };

export type Session = {
  session: { id: string; userId: string; expiresAt: string };
  user: SessionUser;
};

/** `null` when signed out (what GET /api/auth/get-session answers). */
export const sessionQueryOptions = queryOptions({
  queryKey: sessionQueryKey,
  // Kept on the device, so that the app starts offline as the person last signed in (until the session's end).
  queryFn: async ({ signal }) => {
    const answer = apiFetch<Session | null | undefined>('/api/auth/get-session', { signal }).then(
      (found) => found ?? null,
    );
    // Its failure is answered below, once the module is here: not an unhandled rejection meanwhile.
    void answer.catch(() => undefined);
    const { answerOrKept } = await import('./device-db.ts');
    return answerOrKept({
      store: 'session',
      key: 'current',
      answer,
      isUsable: (kept) => kept !== null && new Date(kept.session.expiresAt).getTime() > Date.now(),
    });
  },
  // Asked even when the browser says it is offline: the kept answer is the one to start from then.
  networkMode: 'offlineFirst',
  staleTime: 5 * 60 * 1000,
});

/**
 * The signed-in user, live. `isPending` stays true until the first check is done (a page's frame rendered at build
 * time shows it so); when the check fails (server unreachable) the user counts as signed out. A whole page starts
 * from nobody signed in (main.tsx, entry-server.tsx).
 */
export function useSession() {
  const query = useQuery(sessionQueryOptions);
  const session = query.data ?? null;
  const user = session?.user ?? null;
  return {
    session,
    user,
    isPending: query.isPending,
    isSignedIn: user !== null,
  };
}

// Other tabs of the same browser follow sign-in and sign-out without a reload.
// (None while a page is prerendered at build time, where an open channel would keep Node running.)
const channel = typeof window === 'undefined' ? null : new BroadcastChannel('virtual-help-auth');

/** Tells this tab and the others that the session changed (after sign-in, sign-out, profile edits). */
export async function notifyAuthChanged() {
  channel?.postMessage('changed');
  await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
}

// Requests of this tab that end its session and answer with the one that follows it (a second factor turned on or off).
const sessionReplacements = new Set<Promise<void>>();

/** Marks a request that replaces this tab's session; returns it unchanged. */
export function replacingSession<T>(request: Promise<T>) {
  const settled = request.then(
    () => {},
    () => {},
  );
  sessionReplacements.add(settled);
  void settled.then(() => sessionReplacements.delete(settled));
  return request;
}

/**
 * The server ended this tab's session: asks for it again, after any replacement this tab is waiting for has answered.
 * The server ends the old session before its answer sets the new cookie, so asking at once would find nobody signed in.
 */
export async function recheckEndedSession() {
  await Promise.all(sessionReplacements);
  await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
}

/** Subscribes to session changes made in other tabs; returns the unsubscribe function. */
export function listenToAuthChangesInOtherTabs() {
  if (!channel) return () => {};
  const onMessage = () => void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
  channel.addEventListener('message', onMessage);
  return () => channel.removeEventListener('message', onMessage);
}

/** Ends the session on the server, then forgets everything cached for this user. Throws ApiError. */
export async function signOut() {
  await apiFetch<unknown>('/api/auth/sign-out', { method: 'POST', body: {} });
  await forgetSignedInUser();
}

/** Forgets everything cached for the user whose session the server ended (sign-out, a deleted account). */
export async function forgetSignedInUser() {
  queryClient.setQueryData(sessionQueryKey, null);
  // Data of the signed-out user must not be shown to whoever uses this browser next.
  queryClient.removeQueries({
    predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] && query.queryKey[0] !== 'settings',
  });
  await import('./personal-caches.ts').then(({ clearPersonalCaches }) => clearPersonalCaches()).catch(() => undefined);
  // The server forgot this device's subscription with the session; the browser's is ended too.
  await import('./web-push.ts').then(({ unsubscribeFromPush }) => unsubscribeFromPush()).catch(() => undefined);
  await notifyAuthChanged();
}
