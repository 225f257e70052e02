import { useId, useLayoutEffect, useRef, type ComponentProps, type RefObject } from 'react';
import { TAKEOVER } from '#web/boot/first-use.ts';

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
/** A control someone changed: its value, or whether it is checked. */
type TypedValue = { control: Control; value: string; checked: boolean };

const isControl = (element: Element): element is Control =>
  element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement;

const isCheckable = (control: Control): control is HTMLInputElement =>
  control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio');

/** The value the page was rendered with: what the control shows until someone changes it. */
function renderedValue(control: Control) {
  if (control instanceof HTMLSelectElement) {
    return ([...control.options].find((option) => option.defaultSelected) ?? control.options[0])?.value ?? '';
  }
  return control.defaultValue;
}

/** The form's controls that someone changed: typed into before the app took the page over. */
function changedControls(form: HTMLFormElement): TypedValue[] {
  return [...form.elements].filter(isControl).flatMap((control) => {
    const isChanged = isCheckable(control)
      ? control.checked !== control.defaultChecked
      : control instanceof HTMLInputElement && control.type === 'file'
        ? (control.files?.length ?? 0) > 0
        : control.value !== renderedValue(control);
    return isChanged ? [{ control, value: control.value, checked: isCheckable(control) && control.checked }] : [];
  });
}

/**
 * Hands each changed value to the form's handlers as if it were typed now. React reports a change only when a field
 * differs from what it last saw, and it saw these values while hydrating: so the field first takes another value
 * through its own setter, which React watches, then its value again through the browser's (or a press), and the
 * event React listens for follows.
 */
function giveBack(typed: TypedValue[]) {
  for (const { control, value, checked } of typed) {
    if (control instanceof HTMLSelectElement || control.type === 'file') {
      // React reports every change event of a <select> or a file input; the choice is still in place.
      control.dispatchEvent(new Event('change', { bubbles: true }));
    } else if (isCheckable(control)) {
      // A radio button that lost its check is given back by the one that got it.
      if (control.type === 'radio' && !checked) continue;
      control.checked = !checked;
      control.click();
    } else {
      control.value = value === '' ? ' ' : '';
      Object.getOwnPropertyDescriptor(Object.getPrototypeOf(control), 'value')?.set?.call(control, value);
      control.dispatchEvent(new Event('input', { bubbles: true }));
    }
  }
}

/**
 * The form's first child: reads what was typed into a prerendered form before the app took it over. Its effect runs
 * before the fields' refs are attached, where a form library may put a field's default value back as it registers it.
 */
function TypedBeforeTakeover({ formId, typedRef }: { formId: string; typedRef: RefObject<TypedValue[]> }) {
  useLayoutEffect(() => {
    const form = document.getElementById(formId);
    if (form instanceof HTMLFormElement) typedRef.current = changedControls(form);
  }, [formId, typedRef]);
  return null;
}

/**
 * A <form> that works on a page prerendered to HTML (docs/decisions/0021-forms-that-load-on-first-use.md). Until the
 * app takes the page over, the visitor types into it natively and the boot script holds its submit. Once it has,
 * what was typed is given back to the form's handlers, and then the boot script does what was held. Without
 * scripts, it says that it needs them. It posts if ever sent natively, so that nothing typed goes into the address.
 */
export function Form({ children, id, ...props }: ComponentProps<'form'>) {
  const generatedId = useId();
  const formId = id ?? generatedId;
  const typedRef = useRef<TypedValue[]>([]);
  useLayoutEffect(() => {
    const values = typedRef.current;
    typedRef.current = [];
    // After the commit, when React hands the page to the browser again, before any paint or input.
    queueMicrotask(() => {
      giveBack(values);
      document.dispatchEvent(new Event(TAKEOVER.done));
    });
  }, []);
  return (
    <form id={formId} method="post" {...props}>
      <TypedBeforeTakeover formId={formId} typedRef={typedRef} />
      <fieldset className="contents noscript:hidden">{children}</fieldset>
      <p className="hidden text-sm text-muted-foreground noscript:block">
        This form needs JavaScript. Please enable it in your browser and reload the page.
      </p>
    </form>
  );
}
