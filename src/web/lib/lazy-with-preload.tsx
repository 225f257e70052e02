import { lazy, useState, type ComponentType } from 'react';

/**
 * React.lazy for the parts of a page that wait for a press (a dialog's form, say): their code stays out of the
 * page's first download, and `preload` fetches it as soon as someone reaches for the control (pointer over it,
 * focus). Once loaded it renders at once, without passing through its Suspense fallback.
 */
export function lazyWithPreload<Props extends object>(load: () => Promise<ComponentType<Props>>) {
  let loaded: ComponentType<Props> | undefined;
  let loading: Promise<{ default: ComponentType<Props> }> | undefined;
  const loadOnce = () =>
    (loading ??= load().then((component) => {
      loaded = component;
      return { default: component };
    }));
  const Lazy = lazy(loadOnce);

  function LazyWithPreload(props: Props) {
    // Chosen once per mount, so that the code arriving later does not swap the component (and lose its state).
    const [Component] = useState<ComponentType<Props>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return Object.assign(LazyWithPreload, { preload: () => void loadOnce() });
}
