// Renders a public page to HTML at build time (scripts/prerender.ts); main.tsx hydrates it in the browser.
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import type { RouteObject } from 'react-router';
import { AppProviders } from './app/providers.tsx';
import { RootLayout } from './app/layout/root-layout.tsx';
import { PageFallback } from './app/page-fallback.tsx';
import { routes } from './app/router.tsx';

export function renderPage(pagePath: string) {
  return renderRoutes(routes, pagePath);
}

/**
 * The frame every other page starts from: top bar, footer and the page area loading, as the app shows them until
 * the page's code has arrived. index.html carries it, so a page that is not prerendered paints before its scripts.
 */
export function renderFrame() {
  // At a path of no menu item, so that no link in the frame is marked as the current page.
  return renderRoutes([{ Component: RootLayout, children: [{ path: '*', Component: PageFallback }] }], '/frame');
}

async function renderRoutes(routes: RouteObject[], pagePath: string) {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(pagePath, 'http://prerender.invalid')));
  if (context instanceof Response) throw new Error(`${pagePath} answers with a redirect, not a page`);
  if (context.errors) throw new Error(`${pagePath} fails to render: ${JSON.stringify(context.errors)}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  // No hydration data script: the CSP allows no inline script, and the public pages load no data.
  return renderToString(
    <StrictMode>
      <AppProviders>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    </StrictMode>,
  );
}
