// Renders a public page to HTML at build time (scripts/prerender.ts); main.tsx hydrates it in the browser.
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { AppProviders } from './app/providers.tsx';
import { routes } from './app/router.tsx';

export async function renderPage(pagePath: string) {
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
