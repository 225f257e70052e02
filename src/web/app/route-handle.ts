import type { QueryClient } from '@tanstack/react-query';
import { createContext, isValidElement, type ReactElement } from 'react';
import type { Role } from '#shared/constants.ts';
import type { SessionUser } from '#web/lib/auth-client.ts';

/**
 * One frame for everyone, or one per role where the page's first look differs by role (its top bar's menu items too),
 * for the roles that may see the page.
 */
export type PageFrame = ReactElement | Partial<Record<Role, ReactElement>>;

/**
 * What a page route tells the app about itself before its code has arrived.
 * - `prefetch`: the data a signed-in user's page shows first, asked for as soon as the page is opened (main.tsx),
 *   while its code is still on the way, rather than once that code has rendered.
 * - `frame`: the page as it looks before its data has arrived (its heading, its content loading). The build
 *   prerenders it for the page's first paint (scripts/prerender.ts), and the app's first render there is the page,
 *   which looks the same (docs/decisions/0020-page-frames.md). The guard shows it while the session is checked:
 *   in the browser, only a frame for everyone (the role is not known yet).
 */
export type RouteHandle = {
  prefetch?: (queryClient: QueryClient, user: SessionUser) => Promise<unknown>;
  frame?: PageFrame;
};

/** The role whose frames a build-time render shows; the browser's guard knows none while the session is checked. */
export const FrameRoleContext = createContext<Role | undefined>(undefined);

/** The frame for this role: none when it differs by role and the role is not known. */
export const frameFor = (frame: PageFrame, role: Role | undefined) =>
  isValidElement(frame) ? frame : role && frame[role];
