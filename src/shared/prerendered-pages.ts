const WITHOUT_PAYMENTS = 'prerendered/without-payments/';

/**
 * Where the web build writes a public page prerendered to HTML, relative to its output directory: one copy as a site
 * that takes payments shows it, and one without any word of paying, for PAYMENTS_PROVIDER=none (docs/decisions/0046).
 */
export function prerenderedPageFile(pagePath: string, { payments }: { payments: boolean }) {
  const name = pagePath === '/' ? 'index' : pagePath.slice(1);
  return `${payments ? 'prerendered/' : WITHOUT_PAYMENTS}${name}.html`;
}

/** Whether the file is a public page's copy for this payments mode (not the other mode's, a page frame or template). */
export const isPublicPageFileOf = (file: string, { payments }: { payments: boolean }) =>
  file.endsWith('.html') &&
  !isPageFrameFile(file) &&
  !file.endsWith(SERVER_RENDERED_TEMPLATE) &&
  file.startsWith(WITHOUT_PAYMENTS) !== payments;

const SERVER_RENDERED_TEMPLATE = 'templates/server-rendered.html';

/**
 * Where the web build writes the page a server-rendered public page (a tutor's page for visitors) goes into: top bar
 * and footer as on the whole public pages, with `SERVER_RENDERED_SLOT` in the page area; in each payments mode.
 */
export const serverRenderedTemplateFile = ({ payments }: { payments: boolean }) =>
  `${payments ? 'prerendered/' : WITHOUT_PAYMENTS}${SERVER_RENDERED_TEMPLATE}`;

/** What the server replaces with a server-rendered page's body (as React renders the empty element). */
export const SERVER_RENDERED_SLOT = '<div data-server-rendered-slot=""></div>';

const PAGE_FRAMES = 'prerendered/frames/';

/**
 * Where the web build writes a signed-in page's own frame (web/app/route-handle.ts), relative to its output
 * directory: one file, or one per role where the page's first look differs by role.
 */
export function pageFrameFile(pagePath: string, role?: string) {
  return `${PAGE_FRAMES}${pagePath.slice(1)}${role ? `.${role}` : ''}.html`;
}

export const isPageFrameFile = (file: string) => file.startsWith(PAGE_FRAMES);
