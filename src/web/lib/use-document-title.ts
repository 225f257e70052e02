import { createContext, useContext, useEffect } from 'react';

const APP_NAME = 'Virtual Help';

/** Given while a page is rendered at build time: told the page's title, for the document's head. */
export const DocumentTitleSink = createContext<((title: string) => void) | undefined>(undefined);

/** Sets the tab title to "Title · Virtual Help" (just "Virtual Help" without a title). */
export function useDocumentTitle(title?: string) {
  const documentTitle = title ? `${title} · ${APP_NAME}` : APP_NAME;
  // Rendering at build time runs no effects: the title is handed over while rendering instead.
  useContext(DocumentTitleSink)?.(documentTitle);
  useEffect(() => {
    document.title = documentTitle;
  }, [documentTitle]);
}
