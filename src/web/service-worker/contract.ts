// What the service worker and the pages agree on (service-worker.ts, app/app-updates.ts).

/** The script's address: at the root, so that it serves every page. */
export const SERVICE_WORKER_URL = '/sw.js';
/** The page shown for a navigation while the server cannot be reached. */
export const OFFLINE_PAGE = '/offline.html';
/** The caches of static files, one per version; nothing personal is in them. */
export const STATIC_CACHE_PREFIX = 'vh-static-';
/** A page asks the waiting version to take over with this message. */
export const SKIP_WAITING = 'skip-waiting';
