// A public page with a form arrives as whole HTML that works before any script: its links, the menu, and typing
// into its form. The app's code is fetched when the visitor first uses the page's content (boot.ts), and the app
// then takes the page over (main.tsx). The two scripts talk through these events on the document
// (docs/decisions/0021-forms-that-load-on-first-use.md).

/** The page's <main>: its own content, as against the top bar and the footer (whose links and menu need no script). */
export const MAIN_CONTENT_ID = 'main-content';

/** What counts as using the page: a press, a key, or focus landing in its content. */
export const USE_EVENTS = ['pointerdown', 'keydown', 'focusin'] as const;

export const TAKEOVER = {
  /** The app is about to hydrate the page: from now on React answers the page's events itself. */
  starting: 'virtual-help:takeover-starting',
  /** The app has taken the page over: what was pressed meanwhile can be done now. */
  done: 'virtual-help:takeover-done',
  /** The app's code could not be fetched: the next use of the page tries again. */
  failed: 'virtual-help:takeover-failed',
} as const;

export const isInPageContent = (target: EventTarget | null) =>
  target instanceof Node && document.getElementById(MAIN_CONTENT_ID)?.contains(target) === true;

/** Resolves at the next use of the page's content. */
export function nextUseOfPage() {
  return new Promise<void>((resolve) => {
    const onUse = (event: Event) => {
      if (!isInPageContent(event.target)) return;
      for (const type of USE_EVENTS) document.removeEventListener(type, onUse, true);
      resolve();
    };
    for (const type of USE_EVENTS) document.addEventListener(type, onUse, true);
  });
}
