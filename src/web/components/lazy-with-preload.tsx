import { Component, Fragment, lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { CONNECTION_ERROR_MESSAGE } from '#web/page-contract/connection-error.ts';
import { isChunkLoadError } from '#web/lib/chunk-load-error.ts';
import { loadOnce } from '#web/lib/load-once.ts';

/**
 * Where a part's code failed to arrive: says so in its place, with a retry, instead of failing the whole page (and
 * what was typed on it). Any other error goes on to the page's boundary.
 */
class LoadFailure extends Component<
  { children: ReactNode; onRetry: () => void },
  { error: Error | null; attempt: number }
> {
  override state = { error: null as Error | null, attempt: 0 };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render() {
    const { error, attempt } = this.state;
    // A new key on a retry mounts the part afresh, which loads its code again.
    if (!error) return <Fragment key={attempt}>{this.props.children}</Fragment>;
    if (!isChunkLoadError(error)) throw error;
    return (
      <p role="alert" className="flex flex-wrap items-center gap-x-2 text-sm text-error">
        {CONNECTION_ERROR_MESSAGE}
        <Button
          variant="link"
          size="sm"
          onClick={() => {
            this.props.onRetry();
            this.setState({ error: null, attempt: attempt + 1 });
          }}
        >
          Try again
        </Button>
      </p>
    );
  }
}

/** What a part shows while its code is on the way, unless it names its own. */
const loadingPanel = (
  <div className="flex justify-center py-8">
    <Spinner label="Loading" className="size-6" />
  </div>
);

/**
 * React.lazy for the parts of a page that wait for a press (a dialog's form, say): their code stays out of the
 * page's first download, and `preload` fetches it as soon as someone reaches for the control (pointer over it,
 * focus). Until it is there the part shows `fallback`; once loaded it renders at once, without it. A failed load
 * says so in the part's place, with Try again; a later preload that succeeds serves the next showing.
 */
export function lazyWithPreload<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  { fallback = loadingPanel }: { fallback?: ReactNode } = {},
) {
  let loaded: ComponentType<Props> | undefined;
  const loadComponent = loadOnce(async () => {
    loaded = await load();
    return { default: loaded };
  });

  // One lazy component for every mount: a part that suspends before it mounted is mounted afresh, and a new lazy
  // each time would fetch the code again and again. A failed one is replaced only when someone asks to try again.
  let current = lazy(loadComponent);
  const retry = () => {
    if (!loaded) current = lazy(loadComponent);
  };

  function Part(props: Props) {
    // Chosen once per mount, so that code arriving later does not swap the component (and lose its state).
    const [Loaded] = useState<ComponentType<Props>>(() => loaded ?? current);
    return <Loaded {...props} />;
  }

  function LazyWithPreload(props: Props) {
    return (
      <LoadFailure onRetry={retry}>
        <Suspense fallback={fallback}>
          <Part {...props} />
        </Suspense>
      </LoadFailure>
    );
  }
  return Object.assign(LazyWithPreload, { preload: () => void loadComponent().catch(() => undefined) });
}
