import './app/styles.css';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers.tsx';
import type { RouteHandle } from './app/route-handle.ts';
import { routes } from './app/router.tsx';
import { sessionQueryOptions } from './lib/auth-client.ts';
import { queryClient } from './lib/query-client.ts';
import { publicSettingsQueryOptions } from './lib/settings.ts';
import type { $ZodConfig } from 'zod/v4/core';

// Zod tries `new Function` the first time it parses, and the browser reports that try as a CSP violation. Zod reads
// its settings from this global when it loads (every copy of it shares them), so setting them here turns the try
// off without bringing zod into the first page's code.
(globalThis as { __zod_globalConfig?: $ZodConfig }).__zod_globalConfig = { jitless: true };

// Ask for the session and contact details while the first page's code is still downloading, and, once someone is
// known to be signed in, for the data their page shows first.
const session = queryClient.query(sessionQueryOptions).catch(() => null);
queryClient.query(publicSettingsQueryOptions).catch(() => undefined);
const matches = matchRoutes(routes, window.location) ?? [];
void session.then((signedIn) => {
  if (!signedIn) return;
  for (const { route } of matches) {
    void (route.handle as RouteHandle | undefined)?.prefetch?.(queryClient, signedIn.user);
  }
});

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

/** Lets the browser paint and answer input before the next step of starting up: each step is a task of its own. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve));

// A public page with a form arrives prerendered (scripts/prerender.ts) and is hydrated. Any other page (a content
// page too, for a signed-in visitor) arrives as a frame: the plain one (top bar, footer, page loading) or the page's
// own (app/route-handle.ts), which the app's first render replaces with the same look.
const isPrerendered = container.hasChildNodes() && !('frame' in container.dataset);
if (isPrerendered) {
  // The CSP refuses style attributes in markup: the prerendered HTML carries them as data attributes instead.
  for (const element of container.querySelectorAll<HTMLElement>('[data-prerendered-style]')) {
    element.style.cssText = element.dataset.prerenderedStyle ?? '';
    element.removeAttribute('data-prerendered-style');
  }
}
// The page's lazy route modules are loaded before the first render, so that it is the page itself (as in the
// prerendered HTML), not its loading state followed by the page. One that fails to load is left to the router,
// which tries again and shows its error page (with a retry) if that fails too. A page's own frame may be its role's:
// the session (asked for by the HTML) is awaited too, so that the first render is the page, which looks the same,
// rather than the guard's frame for nobody in particular.
await Promise.all([
  ...matches.map(async ({ route }) => {
    if (typeof route.lazy !== 'function') return;
    const loaded = await route.lazy().catch(() => null);
    if (loaded) Object.assign(route, { ...loaded, lazy: undefined });
  }),
  container.dataset.frame === 'page' ? session : undefined,
]);
await nextTask();
const router = createBrowserRouter(routes);
await nextTask();

const app = (
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>
);
// In a transition, React renders (and hydrates) in slices of a few milliseconds, answering input in between,
// instead of holding the main thread for the whole first render.
startTransition(() => {
  if (isPrerendered) hydrateRoot(container, app);
  else createRoot(container).render(app);
});
