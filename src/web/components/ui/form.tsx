import { createContext, use, useLayoutEffect, type ComponentProps } from 'react';

/**
 * Told by every form once it is in place, right after its commit. The app's entry passes it on to a prerendered
 * page's boot script (main.tsx); nothing else listens.
 */
export const FormInPlaceContext = createContext<() => void>(() => undefined);

/**
 * A <form> that also works on a page prerendered to HTML (docs/decisions/0021-forms-that-load-on-first-use.md): until
 * the app takes such a page over, the visitor types into it natively and the boot script holds its submit. Once in
 * place, a form says so (FormInPlaceContext), and the boot script hands over what it kept.
 * Without scripts, it says that it needs them. It posts if ever sent natively, so that nothing typed goes into the
 * address.
 */
export function Form({ children, ...props }: ComponentProps<'form'>) {
  const sayInPlace = use(FormInPlaceContext);
  useLayoutEffect(() => sayInPlace(), [sayInPlace]);
  return (
    <form method="post" {...props}>
      <fieldset className="contents noscript:hidden">{children}</fieldset>
      <p className="hidden text-sm text-muted-foreground noscript:block">
        This form needs JavaScript. Please enable it in your browser and reload the page.
      </p>
    </form>
  );
}
