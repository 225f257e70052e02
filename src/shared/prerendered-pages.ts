/** Where the web build writes a public page prerendered to HTML, relative to its output directory. */
export function prerenderedPageFile(pagePath: string) {
  return `prerendered${pagePath === '/' ? '/index' : pagePath}.html`;
}

const PAGE_FRAMES = 'prerendered/frames/';

/**
 * Where the web build writes a signed-in page's own frame (web/app/route-handle.ts), relative to its output
 * directory: one file, or one per role where the page's first look differs by role.
 */
export function pageFrameFile(pagePath: string, role?: string) {
  return `${PAGE_FRAMES}${pagePath.slice(1)}${role ? `.${role}` : ''}.html`;
}

export const isPageFrameFile = (file: string) => file.startsWith(PAGE_FRAMES);
