import { STATIC_CACHE_PREFIX } from '#web/service-worker/contract.ts';
import { clearDevice } from './device-db.ts';

/**
 * Deletes every cache of this origin that may hold a person's data: what the app keeps in IndexedDB (the last
 * session and conversation list, unsent messages, drafts) and every cache but the service worker's static files (the
 * build's scripts and stylesheets, the same for everyone). Called at sign-out, for whoever uses the browser next.
 */
export async function clearPersonalCaches() {
  await clearDevice().catch(() => undefined);
  if (!('caches' in window)) return;
  const names = await caches.keys();
  await Promise.all(names.filter((name) => !name.startsWith(STATIC_CACHE_PREFIX)).map((name) => caches.delete(name)));
}
