import { lazy, Suspense, useEffect, useRef, type MouseEvent } from 'react';
import { Outlet, ScrollRestoration, useLocation, type Location } from 'react-router';
import { useSession } from '#web/lib/auth-client.ts';
import { MAIN_CONTENT_ID } from '#web/page-contract/takeover.ts';
import { PageFallback } from '../page-fallback.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';

/** Moves focus to the new page's heading (or <main>) after client-side navigation, as a page load would. */
function useFocusOnRouteChange() {
  const { pathname } = useLocation();
  const isFirstRender = useRef(true);
  useEffect(() => {
    if (isFirstRender.current) {
      isFirstRender.current = false;
      return;
    }
    const main = document.getElementById(MAIN_CONTENT_ID);
    const target = main?.querySelector<HTMLElement>('h1') ?? main;
    if (!target) return;
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus({ preventScroll: true });
  }, [pathname]);
}

// The socket's code is only needed once someone is signed in: keep it out of the first download.
const LiveUpdates = lazy(async () => ({ default: (await import('../live-updates.tsx')).LiveUpdates }));

/**
 * Where a page's scroll position is kept. A page loaded afresh (an address typed, a link from an e-mail) has React
 * Router's key "default", the same for every such load in a tab: keyed by it, the position of the page left would be
 * restored on whichever page is loaded next. Its address keys it instead, so a reload still returns to the same spot.
 */
const scrollPositionKey = (location: Location) => (location.key === 'default' ? location.pathname : location.key);

function skipToContent(event: MouseEvent<HTMLAnchorElement>) {
  // Focus <main> without adding "#main-content" to the address.
  const main = document.getElementById(MAIN_CONTENT_ID);
  if (!main) return;
  event.preventDefault();
  main.focus();
  main.scrollIntoView();
}

export function RootLayout() {
  useFocusOnRouteChange();
  const { user } = useSession();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href={`#${MAIN_CONTENT_ID}`}
        onClick={skipToContent}
        className="sr-only z-50 rounded-md bg-primary font-medium text-primary-foreground shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:px-4 focus:py-3"
      >
        Skip to content
      </a>
      <SiteHeader />
      {/* At least a screen tall (less the top bar): while the session check and a lazy page load, the footer waits
          below the fold, so nothing on screen moves when the page arrives. */}
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex min-h-[calc(100dvh-4rem)] flex-1 flex-col print:min-h-0">
        <Suspense fallback={<PageFallback />}>
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
      <ScrollRestoration getKey={scrollPositionKey} />
      {user && (
        <Suspense>
          <LiveUpdates userId={user.id} role={user.role} />
        </Suspense>
      )}
    </div>
  );
}
