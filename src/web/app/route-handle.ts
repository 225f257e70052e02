import type { QueryClient } from '@tanstack/react-query';
import type { ReactElement } from 'react';

/**
 * What a page route tells the app about itself before its code has arrived.
 * - `prefetch`: the data a signed-in user's page shows first, asked for as soon as the page is opened (main.tsx),
 *   while its code is still on the way, rather than once that code has rendered.
 * - `frame`: the page as it looks before anything about the visitor is known (its heading, its content loading). The
 *   build prerenders it for the page's first paint (scripts/prerender.ts), and the guard shows it while the session
 *   is checked, so the app takes over without the page changing its look (docs/decisions/0020-page-frames.md).
 */
export type RouteHandle = {
  prefetch?: (queryClient: QueryClient) => Promise<unknown>;
  frame?: ReactElement;
};
