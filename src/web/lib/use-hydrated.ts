import { useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => {};

/**
 * False while the page is prerendered at build time and while the browser hydrates that HTML, true from the
 * render after: what depends on this browser (the session, settings fetched at run time) shows its loading
 * state until then, so the first render matches the prerendered HTML exactly. Always true on a page rendered
 * in the browser alone.
 */
export function useHydrated() {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}
