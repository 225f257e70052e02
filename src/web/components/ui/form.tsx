import { useLayoutEffect, type ComponentProps } from 'react';
import { TAKEOVER } from '#web/boot/first-use.ts';

/** The first form of the app's in place on this page load says so, once. */
let hasSaidReady = false;

/**
 * A <form> that also works on a page prerendered to HTML (docs/decisions/0021-forms-that-load-on-first-use.md): until
 * the app takes such a page over, the visitor types into it natively and the boot script holds its submit. Once in
 * place, the first form says so, and the boot script hands over what it kept (on any other page nobody listens).
 * Without scripts, it says that it needs them. It posts if ever sent natively, so that nothing typed goes into the
 * address.
 */
export function Form({ children, ...props }: ComponentProps<'form'>) {
  useLayoutEffect(() => {
    if (hasSaidReady) return;
    hasSaidReady = true;
    // Once the commit is over (React has handed the page back to the browser), before any paint or input.
    queueMicrotask(() => document.dispatchEvent(new Event(TAKEOVER.formReady)));
  }, []);
  return (
    <form method="post" {...props}>
      <fieldset className="contents noscript:hidden">{children}</fieldset>
      <p className="hidden text-sm text-muted-foreground noscript:block">
        This form needs JavaScript. Please enable it in your browser and reload the page.
      </p>
    </form>
  );
}
