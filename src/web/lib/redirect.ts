import { paths } from '#shared/paths.ts';

/**
 * A path on this site to return to after signing in, or null. Only "/…" paths pass: never
 * "//evil.example" or "/\evil.example" (protocol-relative), never an absolute URL.
 */
export function safeRedirectPath(value: string | null | undefined, origin = window.location.origin): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  try {
    // The browser must read it as same-origin, whatever odd characters it holds.
    const url = new URL(value, origin);
    if (url.origin !== origin) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

/** Where to go after signing in: `?redirectTo` when it is a page of this site (not a sign-in page), else /chat. */
export function signInDestination(redirectTo: string | null | undefined, origin = window.location.origin) {
  const path = safeRedirectPath(redirectTo, origin);
  return path && !path.startsWith('/auth/') ? path : paths.chat.getHref();
}
