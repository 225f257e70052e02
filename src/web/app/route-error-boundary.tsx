import { useEffect } from 'react';
import { CircleAlert } from 'lucide-react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { Button } from '#web/components/ui/button.tsx';
import { StatusPage } from '#web/components/ui/status-page.tsx';
import { isChunkLoadError } from '#web/lib/chunk-load-error.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { paths } from '#shared/paths.ts';
import { MAIN_CONTENT_ID } from '#web/page-contract/takeover.ts';

function describe(error: unknown) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return {
      title: 'Page not found',
      text: "The page you're looking for doesn't exist or has been moved.",
      canRetry: false,
    };
  }
  if (isChunkLoadError(error)) {
    return {
      title: 'This page could not be loaded',
      text: 'Please check your internet connection and try again.',
      canRetry: true,
    };
  }
  return {
    title: 'Something went wrong',
    text: 'An unexpected error stopped this page from showing. Please try again; if it keeps happening, contact us.',
    canRetry: true,
  };
}

/**
 * The router's errorElement. `standalone` is used above the layout (the top bar itself failed),
 * so it brings its own <main>.
 */
export function RouteErrorBoundary({ standalone = false }: { standalone?: boolean }) {
  const error = useRouteError();
  const { title, text, canRetry } = describe(error);
  // A crash (not a "not found" answer) goes to the console too, where developers and error trackers look.
  useEffect(() => {
    if (!isRouteErrorResponse(error)) console.error(error);
  }, [error]);
  useDocumentTitle(title);

  const content = (
    <StatusPage
      icon={<CircleAlert />}
      tone="danger"
      title={title}
      actions={
        <>
          {canRetry && <Button onClick={() => window.location.reload()}>Retry</Button>}
          {standalone ? (
            // The router may be what failed: a full page load is the safe way home.
            <Button asChild variant={canRetry ? 'outline' : 'default'}>
              <a href={paths.home.getHref()}>Go to Home</a>
            </Button>
          ) : (
            <Button asChild variant={canRetry ? 'outline' : 'default'}>
              <Link to={paths.home.getHref()}>Go to Home</Link>
            </Button>
          )}
        </>
      }
    >
      {text}
    </StatusPage>
  );

  if (!standalone) return content;
  return (
    <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex min-h-dvh flex-col">
      {content}
    </main>
  );
}
