import { useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => {};

/**
 * False while a page is rendered at build time and while the browser hydrates that HTML, true from the render after
 * (and always on a page rendered in the browser alone): for what the prerendered HTML leaves out, such as the
 * notification area, which takes the browser's colour scheme.
 */
export function useHydrated() {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}
