import './app/styles.css';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers.tsx';
import { FormInPlaceContext } from './components/ui/form.tsx';
import type { RouteHandle } from './app/route-handle.ts';
import { routes } from './app/router.tsx';
import { sessionQueryOptions } from './lib/auth-client.ts';
import { TAKEOVER } from './page-contract/takeover.ts';
import { queryClient, sessionQueryKey } from './lib/query-client.ts';
import { publicSettingsQueryOptions, settingsInPage } from './lib/settings.ts';
import { prepareClassNames } from './lib/utils.ts';
import type { $ZodConfig } from 'zod/v4/core';

// Zod tries `new Function` the first time it parses, and the browser reports that try as a CSP violation. Zod reads
// its settings from this global when it loads (every copy of it shares them), so setting them here turns the try
// off without bringing zod into the first page's code.
(globalThis as { __zod_globalConfig?: $ZodConfig }).__zod_globalConfig = { jitless: true };

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// A public page with a form arrives as whole HTML (scripts/prerender.ts), which the app hydrates once the visitor
// uses it (boot/boot.ts). Any other page (a public one too, for a visitor with a session) arrives as a frame: the plain
// one (top bar, footer, page loading) or the page's own (app/route-handle.ts), which the app's first render replaces
// with the same look.
const isWholePage = container.hasChildNodes() && !('frame' in container.dataset);

/** Lets the browser paint and answer input before the next step of starting up: each step is a task of its own. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve));

// Evaluating this module with everything it imports is a long task already (a phone's CPU): what follows, which
// matches the routes and asks for the page's code, data and the session, goes in a task of its own.
await nextTask();
const matches = matchRoutes(routes, window.location) ?? [];

// Ask for the session and contact details while the first page's code is still downloading, and, once someone is
// known to be signed in, for the data their page shows first.
const session = isWholePage ? undefined : queryClient.query(sessionQueryOptions).catch(() => null);
if (isWholePage) {
  // The server sends a whole page only to a visitor without a session, with its own settings filled in: the app
  // starts from what the page shows, so that its first render is that HTML. Once the page's form is the app's, it
  // asks who is signed in after all (someone may have, in another tab, meanwhile).
  queryClient.setQueryData(sessionQueryKey, null);
  queryClient.setQueryData(publicSettingsQueryOptions.queryKey, settingsInPage());
  document.addEventListener(
    TAKEOVER.formReady,
    () => void queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
    { once: true },
  );
  // The CSP refuses style attributes in markup: the prerendered HTML carries them as data attributes instead.
  for (const element of container.querySelectorAll<HTMLElement>('[data-prerendered-style]')) {
    element.style.cssText = element.dataset.prerenderedStyle ?? '';
    element.removeAttribute('data-prerendered-style');
  }
} else {
  queryClient.query(publicSettingsQueryOptions).catch(() => undefined);
  void session?.then((signedIn) => {
    if (!signedIn) return;
    for (const { route } of matches) {
      void (route.handle as RouteHandle | undefined)?.prefetch?.(queryClient, signedIn.user);
    }
  });
}

let hasSaidFormReady = false;

/** The first form of the app's in place on this page load tells the boot script, once. */
function sayFormReady() {
  if (hasSaidFormReady) return;
  hasSaidFormReady = true;
  // Once the commit is over (React has handed the page back to the browser), before any paint or input.
  queueMicrotask(() => document.dispatchEvent(new Event(TAKEOVER.formReady)));
}

/** Puts a matched route's lazy module in place; false when it could not be fetched. */
async function loadRoute({ route }: { route: RouteObject }) {
  if (typeof route.lazy !== 'function') return true;
  const loaded = await route.lazy().catch(() => null);
  if (loaded) Object.assign(route, { ...loaded, lazy: undefined });
  return loaded !== null;
}

// The page's lazy route modules are loaded before the first render, so that it is the page itself (as in the
// prerendered HTML), not its loading state followed by the page. A whole page cannot be hydrated without them: one
// that fails to load is fetched again when the visitor asks (boot.ts). Elsewhere it is left to the router, which tries
// again and shows its error page (with a retry) if that fails too. A page's own frame may be its role's: the session
// (asked for by the HTML) is awaited too, so that the first render is the page, which looks the same, rather than the
// guard's frame for nobody in particular. Asking for a module adds the module preloads of its chunks to the document,
// a task's worth of a phone's time: that too gets a task of its own.
await nextTask();
if (isWholePage) {
  while (!(await Promise.all(matches.map(loadRoute))).every(Boolean)) {
    document.dispatchEvent(new Event(TAKEOVER.failed));
    await new Promise((resolve) => document.addEventListener(TAKEOVER.retry, resolve, { once: true }));
  }
} else {
  await Promise.all([...matches.map(loadRoute), container.dataset.frame === 'page' ? session : undefined]);
}
await nextTask();
prepareClassNames();
await nextTask();
// A whole page is hydrated where the visitor is, maybe scrolled down to the form: the router must not scroll it to
// the top as it would a page it shows anew (hydration data, which these pages need none of otherwise, says so).
const router = createBrowserRouter(routes, isWholePage ? { hydrationData: {} } : undefined);
await nextTask();

const app = (
  <StrictMode>
    <AppProviders>
      <FormInPlaceContext value={sayFormReady}>
        <RouterProvider router={router} />
      </FormInPlaceContext>
    </AppProviders>
  </StrictMode>
);
// In a transition, React renders (and hydrates) in slices of a few milliseconds, answering input in between,
// instead of holding the main thread for the whole first render.
startTransition(() => {
  if (isWholePage) hydrateRoot(container, app);
  else createRoot(container).render(app);
});
// The service worker's registration is code of its own, which no page's first render waits for.
void import('./app/app-updates.ts').then(({ startServiceWorker }) => startServiceWorker()).catch(() => undefined);
