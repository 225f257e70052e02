import './app/styles.css';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers.tsx';
import { routes } from './app/router.tsx';
import { sessionQueryOptions } from './lib/auth-client.ts';
import { queryClient } from './lib/query-client.ts';
import { publicSettingsQueryOptions } from './lib/settings.ts';
import type { $ZodConfig } from 'zod/v4/core';

// Zod tries `new Function` the first time it parses, and the browser reports that try as a CSP violation. Zod reads
// its settings from this global when it loads (every copy of it shares them), so setting them here turns the try
// off without bringing zod into the first page's code.
(globalThis as { __zod_globalConfig?: $ZodConfig }).__zod_globalConfig = { jitless: true };

// Ask for the session and contact details while the first page's code is still downloading.
queryClient.query(sessionQueryOptions).catch(() => undefined);
queryClient.query(publicSettingsQueryOptions).catch(() => undefined);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// A public page arrives prerendered (scripts/prerender.ts): its lazy route modules are loaded before hydrating,
// so the first render is the page itself, as in the HTML, not the loading state.
const isPrerendered = container.hasChildNodes();
if (isPrerendered) {
  // The CSP refuses style attributes in markup: the prerendered HTML carries them as data attributes instead.
  for (const element of container.querySelectorAll<HTMLElement>('[data-prerendered-style]')) {
    element.style.cssText = element.dataset.prerenderedStyle ?? '';
    element.removeAttribute('data-prerendered-style');
  }
  await Promise.all(
    (matchRoutes(routes, window.location) ?? []).map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      Object.assign(route, { ...(await route.lazy()), lazy: undefined });
    }),
  );
}

const app = (
  <StrictMode>
    <AppProviders>
      <RouterProvider router={createBrowserRouter(routes)} />
    </AppProviders>
  </StrictMode>
);
if (isPrerendered) hydrateRoot(container, app);
else createRoot(container).render(app);
