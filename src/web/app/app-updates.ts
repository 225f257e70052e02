// The service worker (src/web/service-worker/, docs/decisions/0055) from the page's side: registered once the page
// has loaded, and a new version announced rather than taken: it is put in charge only when the person chooses
// "Reload", and every page of the old version reloads then, so that no page runs a mix of the two.
import { toast } from '#web/lib/toast.ts';
import { SERVICE_WORKER_URL, SKIP_WAITING } from '#web/service-worker/contract.ts';

function announceNewVersion(waiting: ServiceWorker) {
  toast('A new version is available', {
    id: 'new-version',
    duration: Infinity,
    action: { label: 'Reload', onClick: () => waiting.postMessage(SKIP_WAITING) },
  });
}

async function registerServiceWorker() {
  const { serviceWorker } = navigator;
  // The first version takes charge of a page that ran without one (its code came from the network: the same build):
  // only a change from one version to another reloads.
  let isControlled = serviceWorker.controller !== null;
  serviceWorker.addEventListener('controllerchange', () => {
    if (isControlled) window.location.reload();
    isControlled = true;
  });
  /** Announces a version once it has installed beside the one in charge (none in charge: it is the first). */
  const watch = (worker: ServiceWorker | null) => {
    const announceOnceInstalled = () => {
      if (worker?.state === 'installed' && serviceWorker.controller) announceNewVersion(worker);
    };
    announceOnceInstalled();
    worker?.addEventListener('statechange', announceOnceInstalled);
  };
  // Registering looks for a new version too: one may be waiting, or installing already.
  const registration = await serviceWorker.register(SERVICE_WORKER_URL, { scope: '/', updateViaCache: 'none' });
  watch(registration.waiting ?? registration.installing);
  registration.addEventListener('updatefound', () => watch(registration.installing));
  // A phone keeps an app open for days: it looks for a new version each time the app comes back into view.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') registration.update().catch(() => undefined);
  });
}

/** Registers the service worker after the page's load, off its first paint; nothing where browsers have none. */
export function startServiceWorker() {
  if (import.meta.env.DEV || !('serviceWorker' in navigator)) return;
  const register = () => void registerServiceWorker().catch(() => undefined);
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
