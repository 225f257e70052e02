import { useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => {};

/**
 * `prerendered` while a page is rendered at build time and while the browser hydrates that HTML (so that the two
 * match), `inBrowser()` from the render after, and on a page rendered in the browser alone.
 */
export function useAfterHydration<T>(inBrowser: () => T, prerendered: T) {
  return useSyncExternalStore(subscribeToNothing, inBrowser, () => prerendered);
}

/**
 * False while a page is rendered at build time and while the browser hydrates that HTML, true from the render after:
 * for what the prerendered HTML leaves out, such as the notification area, which takes the browser's colour scheme.
 */
export const useHydrated = () => useAfterHydration(() => true, false);
