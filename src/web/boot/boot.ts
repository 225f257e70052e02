// The only script of a prerendered public page with a form (scripts/prerender.ts puts it in place of the app's entry,
// which it passes as `data-app`). The page works from its HTML: its links, the menu, typing into the form. The app's
// code is fetched when the visitor first uses the page's content (first-use.ts), not before. Until the app has
// taken the page over, a submit and the presses on the form's buttons are held here and done once it has; what was
// typed stays in the fields (components/ui/form.tsx).
import { CONNECTION_ERROR_MESSAGE } from './connection-error.ts';
import { isInPageContent, TAKEOVER, USE_EVENTS } from './first-use.ts';

const app = document.querySelector<HTMLScriptElement>('script[data-app]')?.dataset.app;

let isLoading = false;
/** Presses on buttons that act in place (a radio, a checkbox, Show password), in order. */
let heldPresses: HTMLButtonElement[] = [];
let heldSubmit: { form: HTMLFormElement; submitter: HTMLElement | null } | null = null;
let problem: HTMLElement | null = null;

function loadApp() {
  if (isLoading || !app) return;
  isLoading = true;
  problem?.remove();
  import(/* @vite-ignore */ app).catch(() => {
    isLoading = false;
    showConnectionProblem();
  });
}

/** Nothing held is done after all: the visitor sees why, and their next use of the page tries again. */
function showConnectionProblem() {
  heldPresses = [];
  releaseSubmit();
  problem ??= Object.assign(document.createElement('p'), {
    role: 'alert',
    className:
      'fixed inset-x-4 bottom-4 z-50 mx-auto max-w-md rounded-lg border bg-popover px-4 py-3 text-sm text-popover-foreground shadow-lg',
    textContent: CONNECTION_ERROR_MESSAGE,
  });
  document.body.append(problem);
}

/** The held form stops looking busy; returns it. */
function releaseSubmit() {
  const held = heldSubmit;
  heldSubmit = null;
  held?.form.removeAttribute('aria-busy');
  return held;
}

function onUse(event: Event) {
  if (isInPageContent(event.target)) loadApp();
}

function onClick(event: MouseEvent) {
  const button = event.target instanceof Element ? event.target.closest('button') : null;
  // A submit button's press becomes a submit event, held below.
  if (button && button.type !== 'submit' && isInPageContent(button)) heldPresses.push(button);
}

function onSubmit(event: SubmitEvent) {
  if (!(event.target instanceof HTMLFormElement)) return;
  // Sent by the app once it is here: natively, it would leave the page and lose what was typed.
  event.preventDefault();
  releaseSubmit();
  heldSubmit = { form: event.target, submitter: event.submitter };
  heldSubmit.form.setAttribute('aria-busy', 'true');
  loadApp();
}

function stopHolding() {
  for (const type of USE_EVENTS) document.removeEventListener(type, onUse, true);
  document.removeEventListener('click', onClick, true);
  document.removeEventListener('submit', onSubmit, true);
}

function doWhatWasHeld() {
  problem?.remove();
  for (const button of heldPresses) if (button.isConnected) button.click();
  heldPresses = [];
  const held = releaseSubmit();
  if (held?.form.isConnected) {
    const submitter = held.submitter?.isConnected ? held.submitter : null;
    held.form.requestSubmit(submitter);
  }
}

if (app) {
  for (const type of USE_EVENTS) document.addEventListener(type, onUse, true);
  document.addEventListener('click', onClick, true);
  document.addEventListener('submit', onSubmit, true);
  // From here on, React answers the page's events itself (hydrating at once what they reach).
  document.addEventListener(TAKEOVER.starting, stopHolding, { once: true });
  document.addEventListener(TAKEOVER.done, doWhatWasHeld, { once: true });
  document.addEventListener(TAKEOVER.failed, showConnectionProblem);
}
