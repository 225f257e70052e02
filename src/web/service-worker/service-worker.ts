// The service worker (built by scripts/service-worker-build.ts into /sw.js; docs/decisions/0055). It keeps one
// version's static files so that a repeat visit starts without the network, and an offline page for a navigation
// that cannot reach the server. Of the pages' HTML (the server picks it by session and role) it keeps only the start
// page as last answered, to open on it offline (docs/decisions/0063); never an API answer.
import { OFFLINE_PAGE, SKIP_WAITING, START_PAGES, START_PAGE_CACHE_PREFIX, STATIC_CACHE_PREFIX } from './contract.ts';

/** The files of this build to keep, and the build's version; written in by the build. */
declare const __PRECACHE__: { version: string; files: string[] };

// The DOM library is this project's; the few service worker types used here are declared instead of the webworker
// library, which cannot be loaded beside it.
type ExtendableEvent = Event & { waitUntil(promise: Promise<unknown>): void };
type FetchEvent = ExtendableEvent & { request: Request; respondWith(response: Promise<Response>): void };
type PushEvent = ExtendableEvent & { data: { json(): unknown } | null };
type NotificationEvent = ExtendableEvent & { notification: Notification };
type WindowClient = { url: string; focus(): Promise<unknown>; navigate(url: string): Promise<unknown> };
type ServiceWorkerScope = {
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void;
  skipWaiting(): Promise<void>;
  clients: {
    claim(): Promise<void>;
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<unknown>;
  };
  registration: ServiceWorkerRegistration;
  location: Location;
};
const worker = self as unknown as ServiceWorkerScope;

const staticCache = `${STATIC_CACHE_PREFIX}${__PRECACHE__.version}`;
/** The start page of this version (its HTML names this version's files); cleared at sign-out with personal caches. */
const startPageCache = `${START_PAGE_CACHE_PREFIX}${__PRECACHE__.version}`;

worker.addEventListener('install', (event) => {
  // All or nothing: a version half kept would mix with the network's files of another version.
  event.waitUntil(caches.open(staticCache).then((cache) => cache.addAll(__PRECACHE__.files)));
});

worker.addEventListener('activate', (event) => {
  // The previous version's files and start page go once this one is in charge (the pages reload on the change:
  // app-updates.ts).
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names.filter((name) => name !== staticCache && name !== startPageCache).map((name) => caches.delete(name)),
        ),
      )
      .then(() => worker.clients.claim()),
  );
});

// A waiting version takes over only when the person asks for it ("Reload"), so one page never runs two versions.
worker.addEventListener('message', (event) => {
  if (event.data === SKIP_WAITING) void worker.skipWaiting();
});

/**
 * A navigation: the network's page, else (offline) the start page as kept, else the offline page. Only the start page
 * is kept, as the server answered it to this browser's session; an address the server sent elsewhere is not.
 */
async function pageOrOffline(event: FetchEvent) {
  const { pathname } = new URL(event.request.url);
  const isStartPage = START_PAGES.includes(pathname);
  try {
    const response = await fetch(event.request);
    if (isStartPage && response.ok && !response.redirected) {
      const copy = response.clone();
      event.waitUntil(caches.open(startPageCache).then((cache) => cache.put(pathname, copy)));
    }
    return response;
  } catch {
    const kept = isStartPage
      ? await caches.match(pathname, { cacheName: startPageCache, ignoreVary: true })
      : undefined;
    return kept ?? (await caches.match(OFFLINE_PAGE, { cacheName: staticCache })) ?? Response.error();
  }
}

/** A hashed static file: this version's copy, else the network's, kept for next time when it is one of ours. */
async function staticFile(request: Request) {
  const cache = await caches.open(staticCache);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
  if (request.mode === 'navigate') return event.respondWith(pageOrOffline(event));
  // Hashed files only; /api, /socket.io and everything else go to the network untouched.
  if (url.pathname.startsWith('/assets/') || __PRECACHE__.files.includes(url.pathname)) {
    event.respondWith(staticFile(request));
  }
});

/** What a push carries (src/shared/schemas/push.ts): no more than the notification shows. */
type PushPayload = { title: string; body: string; url: string; tag?: string };

// A push is shown as a notification; one with a tag replaces those of the same tag (SPEC.md: chat-message).
worker.addEventListener('push', (event) => {
  const payload = event.data?.json() as PushPayload | undefined;
  if (!payload) return;
  event.waitUntil(
    (async () => {
      if (payload.tag) {
        for (const shown of await worker.registration.getNotifications({ tag: payload.tag })) shown.close();
      }
      await worker.registration.showNotification(payload.title, {
        body: payload.body,
        tag: payload.tag,
        icon: '/icons/icon-192.png',
        data: { url: payload.url },
      });
    })(),
  );
});

// A click opens its screen in a window of the app that is open already, else in a new one.
worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const { url } = event.notification.data as { url: string };
  const target = new URL(url, worker.location.origin).href;
  event.waitUntil(
    (async () => {
      const [open] = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
      if (!open) return worker.clients.openWindow(target);
      await open.navigate(target);
      return open.focus();
    })(),
  );
});
