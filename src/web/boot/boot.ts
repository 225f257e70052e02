// The only script of a prerendered public page with a form (scripts/prerender.ts puts it in the page, with the app's
// entry as `data-app`). The page works from its HTML: its links, the menu, typing into the form. The app's code is
// fetched when the visitor first uses the form (first-use.ts), not before. Until a form of the app's is in place,
// this script keeps what was typed into the form, and holds its submit and the presses on its buttons; then it hands
// them over, in order (docs/decisions/0021-forms-that-load-on-first-use.md).
import { CONNECTION_ERROR_MESSAGE } from '../page-contract/connection-error.ts';
import { TAKEOVER } from '../page-contract/takeover.ts';
import { formInPageContent, USE_EVENTS } from './first-use.ts';

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
/** What the visitor made of a control: its value, whether it is checked, the files chosen. */
type Typed = { formIndex: number; name: string; value: string; checked: boolean; files: File[] };

const app = document.querySelector<HTMLScriptElement>('script[data-app]')?.dataset.app;

let isLoading = false;
let hasFailed = false;
let isHandedOver = false;
const typed = new Map<Control, Typed>();
/** Presses on buttons that act in place (a role card, a consent box, Show password), in order. */
let heldPresses: HTMLButtonElement[] = [];
let heldSubmit: { form: HTMLFormElement; formIndex: number; submitter: HTMLButtonElement | null } | null = null;
/** The control a visitor is composing a word in with an input method (a phone's keyboard): not to be touched. */
let composing: EventTarget | null = null;
let notice: HTMLElement | null = null;

// Present from the start, empty: assistive technology announces what is later written into a live region.
const status = Object.assign(document.createElement('p'), { className: 'sr-only' });
status.setAttribute('role', 'status');

const isControl = (element: EventTarget | null): element is Control =>
  element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement;
const isCheckable = (control: Control): control is HTMLInputElement =>
  control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio');
const formIndexOf = (form: HTMLFormElement) => [...document.forms].indexOf(form);

const isRadio = (control: Control): control is HTMLInputElement =>
  control instanceof HTMLInputElement && control.type === 'radio';

function keep(control: Control) {
  const form = formInPageContent(control);
  if (!form || control.type === 'hidden') return;
  if (isRadio(control)) {
    // A group of radio buttons is kept as the one checked.
    if (!control.checked) return;
    for (const other of typed.keys()) if (isRadio(other) && other.name === control.name) typed.delete(other);
  }
  // Kept in the order last changed.
  typed.delete(control);
  typed.set(control, {
    formIndex: formIndexOf(form),
    name: control.name,
    value: control.value,
    checked: isCheckable(control) && control.checked,
    files: control instanceof HTMLInputElement && control.files ? [...control.files] : [],
  });
}

/** The value the page was rendered with, which the control shows until someone changes it. */
function renderedValue(control: Control) {
  if (!(control instanceof HTMLSelectElement)) return control.defaultValue;
  return ([...control.options].find((option) => option.defaultSelected) ?? control.options[0])?.value ?? '';
}

/** Fetches the app's code; after a failure (Try again, or a submit), whatever failed again. */
function loadApp() {
  if (hasFailed) {
    hasFailed = false;
    notice?.remove();
    // The app itself may be here, with only the page's code missing: the app fetches that again.
    document.dispatchEvent(new Event(TAKEOVER.retry));
  }
  if (isLoading || !app) return;
  isLoading = true;
  import(/* @vite-ignore */ app).catch(() => {
    isLoading = false;
    void failed();
  });
}

/**
 * Whether a new version was deployed since the page was opened: the page as the server has it now loads another app.
 * Then the app's files this page names are gone, and only a new page load helps.
 */
async function isReplaced() {
  const page = await fetch(location.pathname, { cache: 'no-store' }).catch(() => null);
  return page?.ok === true && !(await page.text()).includes(`data-app="${app}"`);
}

const isStillFailing = () => hasFailed && !isHandedOver;

/** What was held is dropped, and the visitor is told why. */
async function failed() {
  hasFailed = true;
  heldPresses = [];
  releaseSubmit();
  const replaced = await isReplaced();
  // Meanwhile the visitor may have asked again, and the app may have come.
  if (!isStillFailing()) return;
  if (replaced) {
    showNotice(
      'This page could not be loaded',
      'Virtual Help has been updated since this page was opened. Please reload it.',
      { label: 'Reload', act: () => location.reload() },
    );
  } else {
    const [title = '', text] = CONNECTION_ERROR_MESSAGE.split(' - ');
    showNotice(title, text, { label: 'Try again', act: loadApp });
  }
}

/** Looks like the app's own notices (components/ui/toaster.tsx): below the top bar, on the right. */
function showNotice(title: string, text: string | undefined, action: { label: string; act: () => void }) {
  notice?.remove();
  // Where the visitor was, to go back to when the notice goes with its button.
  const focused = document.activeElement;
  notice = document.createElement('div');
  notice.setAttribute('role', 'alert');
  notice.className =
    'fixed inset-x-4 top-18 z-50 flex items-start gap-3 rounded-lg border bg-popover p-4 text-sm text-popover-foreground shadow-lg sm:left-auto sm:top-20 sm:w-96';
  const words = Object.assign(document.createElement('div'), { className: 'flex flex-1 flex-col gap-1' });
  words.append(Object.assign(document.createElement('p'), { className: 'font-semibold', textContent: title }));
  if (text) {
    words.append(Object.assign(document.createElement('p'), { className: 'text-muted-foreground', textContent: text }));
  }
  const button = Object.assign(document.createElement('button'), {
    type: 'button',
    className: 'shrink-0 cursor-pointer rounded-md border px-3 py-1.5 font-medium hover:bg-accent',
    textContent: action.label,
  });
  button.addEventListener('click', () => {
    if (focused instanceof HTMLElement && focused.isConnected && focused !== document.body) focused.focus();
    action.act();
  });
  notice.append(words, button);
  document.body.append(notice);
}

/** The held form stops looking busy; returns what was held. */
function releaseSubmit() {
  const held = heldSubmit;
  heldSubmit = null;
  status.textContent = '';
  held?.form.removeAttribute('aria-busy');
  held?.form.querySelector('[type="submit"]')?.removeAttribute('aria-disabled');
  return held;
}

// After a failure, only Try again or a submit asks again: not every key typed meanwhile.
function onUse(event: Event) {
  if (!hasFailed && formInPageContent(event.target)) loadApp();
}

function onChange(event: Event) {
  if (isControl(event.target)) keep(event.target);
}

function onComposition(event: CompositionEvent) {
  composing = event.type === 'compositionstart' ? event.target : null;
}

// Until the app's form is in place, the press is held here rather than seen by the app, half taken over.
function onClick(event: MouseEvent) {
  const button = event.target instanceof Element ? event.target.closest('button') : null;
  // A submit button's press becomes a submit event, held below.
  if (!button || button.type === 'submit' || !formInPageContent(button)) return;
  event.stopPropagation();
  heldPresses.push(button);
}

function onSubmit(event: SubmitEvent) {
  const form = formInPageContent(event.target);
  if (!form) return;
  // Sent by the app once it is here: natively, it would leave the page and lose what was typed.
  event.preventDefault();
  event.stopPropagation();
  releaseSubmit();
  const submitter = event.submitter instanceof HTMLButtonElement ? event.submitter : null;
  heldSubmit = { form, formIndex: formIndexOf(form), submitter };
  form.setAttribute('aria-busy', 'true');
  form.querySelector('[type="submit"]')?.setAttribute('aria-disabled', 'true');
  status.textContent = 'Sending as soon as the page is ready.';
  loadApp();
}

const listeners = [
  ...USE_EVENTS.map((type) => [type, onUse] as const),
  ['input', onChange],
  ['change', onChange],
  ['compositionstart', onComposition],
  ['compositionend', onComposition],
  ['click', onClick],
  ['submit', onSubmit],
] as const;

/** The control now in the page for what was kept: the same one, or its like if the app rendered the form anew. */
function controlFor(control: Control, { formIndex, name }: Typed) {
  if (control.isConnected) return control;
  const like = name ? document.forms[formIndex]?.elements.namedItem(name) : null;
  return like instanceof Element && isControl(like) ? like : null;
}

/**
 * Hands a kept value to the form's handlers as if it were typed now: the event React listens for, after making sure
 * it reports a change (React compares with the value it last saw, which it read from the field while hydrating).
 */
function giveBack(control: Control, value: Typed) {
  if (control instanceof HTMLInputElement && control.type === 'file') {
    // The app may have cleared the choice as it mounted.
    if (value.files.length > 0 && control.files?.length === 0) {
      const chosen = new DataTransfer();
      for (const file of value.files) chosen.items.add(file);
      control.files = chosen.files;
    }
    control.dispatchEvent(new Event('change', { bubbles: true }));
  } else if (control instanceof HTMLSelectElement) {
    control.value = value.value;
    control.dispatchEvent(new Event('change', { bubbles: true }));
  } else if (isCheckable(control)) {
    control.checked = !value.checked;
    control.click();
  } else {
    handOverText(control, value.value);
  }
}

/** Where React DOM keeps the value it last saw in a field (react-dom's inputValueTracking). */
type TrackedField = { _valueTracker?: { setValue: (value: string) => void } | null };

/**
 * A field that already holds the kept value (the page's own field, hydrated) is left as it is: setting its value
 * would move the caret to the end and drop a selection, so that what the visitor types next would land after the
 * text rather than in its place (an e-mail field cannot even say where its caret was). React is told it last saw
 * another value, so that the input event is a change to it. Only a field that lost the value (rendered anew) is set.
 */
function handOverText(control: HTMLInputElement | HTMLTextAreaElement, kept: string) {
  const other = kept === '' ? ' ' : '';
  const tracker = (control as TrackedField)._valueTracker;
  if (control.value === kept && tracker) {
    tracker.setValue(other);
  } else {
    // Through React's own setter first, which it watches, then the browser's, which it does not.
    control.value = other;
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(control), 'value')?.set?.call(control, kept);
  }
  control.dispatchEvent(new Event('input', { bubbles: true }));
}

function handOver() {
  isHandedOver = true;
  for (const [type, listener] of listeners) document.removeEventListener(type, listener as EventListener, true);
  notice?.remove();
  for (const [kept, value] of typed) {
    const control = controlFor(kept, value);
    if (!control) continue;
    // A word being composed would be broken by setting the field's value: it is handed over once composed, with
    // what the field holds then.
    if (control === composing) {
      control.addEventListener('compositionend', () => giveBack(control, { ...value, value: control.value }), {
        once: true,
      });
    } else {
      giveBack(control, value);
    }
  }
  for (const button of heldPresses) if (button.isConnected) button.click();
  const held = releaseSubmit();
  const form = held && (held.form.isConnected ? held.form : document.forms[held.formIndex]);
  if (!form) return;
  form.requestSubmit(held.submitter?.isConnected && held.submitter.form === form ? held.submitter : null);
}

if (app) {
  // Anything typed before this script ran (it runs once the page is parsed).
  for (const control of document.querySelectorAll<Control>('form input, form textarea, form select')) {
    const isChanged = isCheckable(control)
      ? control.checked !== control.defaultChecked
      : control instanceof HTMLInputElement && control.type === 'file'
        ? (control.files?.length ?? 0) > 0
        : control.value !== renderedValue(control);
    if (isChanged) keep(control);
  }
  document.body.append(status);
  for (const [type, listener] of listeners) document.addEventListener(type, listener as EventListener, true);
  // What the page's inline script held before this script ran (hold-before-boot.ts): a press, then maybe the submit.
  const heldBeforeBoot = window.takeHeldBeforeBoot?.() ?? [];
  for (const event of heldBeforeBoot) {
    if (event instanceof SubmitEvent) onSubmit(event);
    else if (event instanceof MouseEvent) onClick(event);
  }
  // A visitor who typed, pressed or is in the form before this script ran has used it: nothing else may come to say so.
  if (heldBeforeBoot.length > 0 || typed.size > 0 || formInPageContent(document.activeElement)) loadApp();
  document.addEventListener(TAKEOVER.formReady, handOver, { once: true });
  document.addEventListener(TAKEOVER.failed, () => void failed());
}
