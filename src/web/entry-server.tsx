// Renders to HTML at build time (scripts/prerender.ts): the public pages, whole (as a signed-out visitor sees them),
// which main.tsx hydrates in the browser where they have a form; and the frames the app replaces.
import { isValidElement, StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import type { RouteObject } from 'react-router';
import { FrameRoleContext, type RouteHandle } from './app/route-handle.ts';
import { ROLES, type Role } from '#shared/constants.ts';
import { paths } from '#shared/paths.ts';
import { settingsToRender } from '#shared/public-settings.ts';
import { AppProviders } from './app/providers.tsx';
import { RootLayout } from './app/layout/root-layout.tsx';
import { PageFallback } from './app/page-fallback.tsx';
import { routes } from './app/router.tsx';
import { queryClient, sessionQueryKey } from './lib/query-client.ts';
import { publicSettingsQueryOptions } from './lib/settings.ts';
import { DocumentTitleSink } from './lib/use-document-title.ts';
import { holdBeforeBoot } from './page-contract/hold-before-boot.ts';
import { MAIN_CONTENT_ID } from './page-contract/takeover.ts';

export type RenderedPage = { body: string; title: string };

/** The inline script of a page with a form, as its source: it holds a submit made before the boot script runs. */
export const holdBeforeBootScript = `(${holdBeforeBoot.toString()})(${JSON.stringify(MAIN_CONTENT_ID)});`;

/**
 * A public page, whole: as a signed-out visitor sees it once the app has started (the top bar's Log in and Sign up,
 * the support details as placeholders the server fills in), with or without its payment texts. A page with a form is
 * hydrated from the same state (main.tsx).
 */
export async function renderPage(pagePath: string, { payments }: { payments: boolean }) {
  queryClient.setQueryData(sessionQueryKey, null);
  queryClient.setQueryData(publicSettingsQueryOptions.queryKey, settingsToRender({ payments }));
  try {
    return await renderRoutes(routes, pagePath);
  } finally {
    queryClient.clear();
  }
}

/**
 * The frame every other page starts from: top bar, footer and the page area loading, as the app shows them until
 * the page's code has arrived. index.html carries it, so a page that is not prerendered paints before its scripts.
 */
export async function renderFrame() {
  // At a path of no menu item, so that no link in the frame is marked as the current page.
  return (await renderRoutes([{ Component: RootLayout, children: [{ path: '*', Component: PageFallback }] }], '/frame'))
    .body;
}

/** The server-rendered pages' element in the page area, which the server replaces with the page's body. */
function ServerRenderedSlot() {
  return <div data-server-rendered-slot="" />;
}

/**
 * The page a server-rendered public page (a tutor's page for visitors) goes into: the top bar and footer as a
 * signed-out visitor sees them on the whole public pages, at the directory's address (Find Tutors is current), with
 * the slot the server fills in the page area.
 */
export async function renderServerRenderedTemplate({ payments }: { payments: boolean }) {
  queryClient.setQueryData(sessionQueryKey, null);
  queryClient.setQueryData(publicSettingsQueryOptions.queryKey, settingsToRender({ payments }));
  try {
    const layout = [{ Component: RootLayout, children: [{ path: '*', Component: ServerRenderedSlot }] }];
    return (await renderRoutes(layout, `${paths.tutors.path}/page`)).body;
  } finally {
    queryClient.clear();
  }
}

export type FramedPage = { path: string; role?: Role };

/** The pages with a frame of their own (app/route-handle.ts), each role's where it differs by role. */
export function framedPages(routeList: RouteObject[] = routes): FramedPage[] {
  return routeList.flatMap((route) => {
    const frame = (route.handle as RouteHandle | undefined)?.frame;
    const own =
      !frame || !route.path
        ? []
        : isValidElement(frame)
          ? [{ path: route.path }]
          : ROLES.filter((role) => frame[role]).map((role) => ({ path: route.path!, role }));
    return [...own, ...framedPages(route.children ?? [])];
  });
}

/**
 * A page's own frame: the top bar and footer as in the frame above, and the page as it looks while the session is
 * checked (its guard shows the page's frame then, the role's where it has one per role).
 */
export function renderPageFrame({ path: pagePath, role }: FramedPage) {
  return renderRoutes(routes, pagePath, { frameRole: role });
}

async function renderRoutes(
  routes: RouteObject[],
  pagePath: string,
  { frameRole }: { frameRole?: Role } = {},
): Promise<RenderedPage> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(pagePath, 'http://prerender.invalid')));
  if (context instanceof Response) throw new Error(`${pagePath} answers with a redirect, not a page`);
  if (context.errors) throw new Error(`${pagePath} fails to render: ${JSON.stringify(context.errors)}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  let title = '';
  // No hydration data script: the CSP allows no inline script, and the public pages load no data.
  const body = renderToString(
    <StrictMode>
      <DocumentTitleSink value={(pageTitle) => (title = pageTitle)}>
        <AppProviders>
          <FrameRoleContext value={frameRole}>
            <StaticRouterProvider router={router} context={context} hydrate={false} />
          </FrameRoleContext>
        </AppProviders>
      </DocumentTitleSink>
    </StrictMode>,
  );
  return { body, title };
}
