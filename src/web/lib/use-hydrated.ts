import { createContext, useContext, useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => {};

/**
 * True while a public page is rendered at build time to be read whole, never hydrated (what a signed-out visitor
 * gets of the content pages): it renders as the browser would once hydrated, from the data the build gives it.
 */
export const WholePageRender = createContext(false);

/**
 * False while the page is prerendered at build time and while the browser hydrates that HTML, true from the
 * render after: what depends on this browser (the session, settings fetched at run time) shows its loading
 * state until then, so the first render matches the prerendered HTML exactly. Always true on a page rendered
 * in the browser alone, and in a whole-page render (WholePageRender).
 */
export function useHydrated() {
  const isWholePageRender = useContext(WholePageRender);
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => isWholePageRender,
  );
}
