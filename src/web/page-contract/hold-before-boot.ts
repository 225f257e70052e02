// The first script of a prerendered page with a form, inline in its head (scripts/prerender.ts), admitted by the CSP
// through its hash (src/server/http/spa.ts). The boot script is a module: it runs only once the page is parsed and
// its file has arrived, and on a slow link a visitor may fill the form in and press Enter before that. Natively that
// submit would post the form to the page's address and leave it, losing what was typed; a press on a button that
// acts in place would do nothing. This holds both until the boot script takes them (boot.ts).
//
// Its source is inserted as it is (through entry-server.tsx), so it reaches nothing outside itself.

declare global {
  interface Window {
    /** Set by holdBeforeBoot: stops holding and gives what was held, in order. */
    takeHeldBeforeBoot?: () => Event[];
  }
}

/** Holds submits and in-place presses in the forms of the element `contentId` (the page's <main>). */
export function holdBeforeBoot(contentId: string) {
  const held: Event[] = [];
  const hold = (event: Event) => {
    const target = event.target instanceof Element ? event.target : null;
    const form = target?.closest('form');
    if (!form || !document.getElementById(contentId)?.contains(form)) return;
    if (event.type === 'submit') {
      event.preventDefault();
    } else {
      // A submit button's press becomes a submit event, held as such.
      const button = target!.closest('button');
      if (!button || button.type === 'submit') return;
    }
    held.push(event);
  };
  document.addEventListener('submit', hold, true);
  document.addEventListener('click', hold, true);
  window.takeHeldBeforeBoot = () => {
    document.removeEventListener('submit', hold, true);
    document.removeEventListener('click', hold, true);
    return held;
  };
}
