import { useEffect } from 'react';

const APP_NAME = 'Virtual Help';

/** Sets the tab title to "Title · Virtual Help" (just "Virtual Help" without a title). */
export function useDocumentTitle(title?: string) {
  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : APP_NAME;
  }, [title]);
}
