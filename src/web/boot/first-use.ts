// A public page with a form arrives as whole HTML that works before any script: its links, the menu, and typing
// into its form. The app's code is fetched when the visitor first uses the page's form (boot.ts), and the app then
// takes the page over (main.tsx). The two talk through these events on the document
// (docs/decisions/0021-forms-that-load-on-first-use.md). The boot script's modules are copied into the chunks that
// use them (vite.config.ts), so they hold constants and functions only, never state.

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

/** What counts as using the page: a press, a key, or focus landing in one of the forms of its content. */
export const USE_EVENTS = ['pointerdown', 'keydown', 'focusin'] as const;

/** The form of the page's content that the event's target is in, if any. */
export function formInPageContent(target: EventTarget | null) {
  const form = target instanceof Element ? target.closest('form') : null;
  return form && document.getElementById(MAIN_CONTENT_ID)?.contains(form) ? form : null;
}
