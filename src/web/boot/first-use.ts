// A public page with a form arrives as whole HTML that works before any script: its links, the menu, and typing
// into its form. The app's code is fetched when the visitor first uses the page's form (boot.ts), and the app then
// takes the page over (main.tsx), through the events of page-contract/takeover.ts
// (docs/decisions/0021-forms-that-load-on-first-use.md). The boot script's modules are copied into the chunks that
// use them (vite.config.ts), so they hold constants and functions only, never state.
import { MAIN_CONTENT_ID } from '../page-contract/takeover.ts';

/** What counts as using the page: a press, a key, or focus landing in one of the forms of its content. */
export const USE_EVENTS = ['pointerdown', 'keydown', 'focusin'] as const;

/** The form of the page's content that the event's target is in, if any. */
export function formInPageContent(target: EventTarget | null) {
  const form = target instanceof Element ? target.closest('form') : null;
  return form && document.getElementById(MAIN_CONTENT_ID)?.contains(form) ? form : null;
}
