// What a prerendered page's boot script (boot/boot.ts) and the app agree on: the page's content and the events
// through which the app takes a page with a form over (docs/decisions/0021-forms-that-load-on-first-use.md). The
// boot script's copy of this folder is inlined into its chunk (vite.config.ts): constants only, never state.

/** The page's <main>: its own content, as against the top bar and the footer. */
export const MAIN_CONTENT_ID = 'main-content';

export const TAKEOVER = {
  /** A form of the app's is in place (the page's, once hydrated): the boot script hands over what it held. */
  formReady: 'virtual-help:form-ready',
  /** The app's code could not be fetched. */
  failed: 'virtual-help:takeover-failed',
  /** The visitor asks again (Try again, or a submit): fetch what failed. */
  retry: 'virtual-help:takeover-retry',
} as const;
