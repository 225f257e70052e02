/**
 * Drop-in for `react-style-singleton` (used by react-remove-scroll, i.e. Radix's scroll lock).
 * The original appends a <style> element, which `style-src 'self'` blocks with a console error;
 * this one adopts a constructed stylesheet instead, which CSP allows. Aliased in vite.config.ts.
 * Same API and lifecycle: the styles exist while at least one user is mounted.
 */
import { useEffect } from 'react';

type StyleSheetSingleton = { add: (style: string) => void; remove: () => void };

function createSheet(css: string): CSSStyleSheet | null {
  if (typeof document === 'undefined' || typeof CSSStyleSheet === 'undefined') return null;
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    return sheet;
  } catch {
    return null;
  }
}

function dropSheet(sheet: CSSStyleSheet) {
  document.adoptedStyleSheets = document.adoptedStyleSheets.filter((adopted) => adopted !== sheet);
}

export function stylesheetSingleton(): StyleSheetSingleton {
  let counter = 0;
  let sheet: CSSStyleSheet | null = null;
  return {
    add(style) {
      if (counter === 0) sheet = createSheet(style);
      counter++;
    },
    remove() {
      counter--;
      if (counter === 0 && sheet) {
        dropSheet(sheet);
        sheet = null;
      }
    },
  };
}

export function styleHookSingleton() {
  const sheet = stylesheetSingleton();
  return (styles: string, isDynamic?: boolean) => {
    useEffect(
      () => {
        sheet.add(styles);
        return () => sheet.remove();
      },
      // Same dependency as the original: styles are re-applied only when marked dynamic.
      // eslint-disable-next-line react-hooks/exhaustive-deps -- kept as upstream has it, so behaviour matches
      [styles && isDynamic],
    );
  };
}

export function styleSingleton() {
  const useStyle = styleHookSingleton();
  function Sheet({ styles, dynamic }: { styles: string; dynamic?: boolean }) {
    useStyle(styles, dynamic);
    return null;
  }
  return Sheet;
}
