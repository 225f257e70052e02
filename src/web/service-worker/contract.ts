// What the service worker and the pages agree on (service-worker.ts, app/app-updates.ts).

/** The script's address: at the root, so that it serves every page. */
export const SERVICE_WORKER_URL = '/sw.js';
/** The page shown for a navigation while the server cannot be reached. */
export const OFFLINE_PAGE = '/offline.html';
/** The caches of static files, one per version; nothing personal is in them. */
export const STATIC_CACHE_PREFIX = 'vh-static-';
/** A page asks the waiting version to take over with this message. */
export const SKIP_WAITING = 'skip-waiting';
/**
 * The caches of the app's start page as this browser last got it, one per version: the frame the server picked for
 * the person signed in, kept so that the installed app opens offline (docs/decisions/0063). Personal: sign-out
 * deletes it with every cache but the static ones.
 */
export const START_PAGE_CACHE_PREFIX = 'vh-start-page-';
/** The pages kept for starting offline: the installed app's start page. */
export const START_PAGES = ['/chat'];
