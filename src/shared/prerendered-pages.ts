/** Where the web build writes a public page prerendered to HTML, relative to its output directory. */
export function prerenderedPageFile(pagePath: string) {
  return `prerendered${pagePath === '/' ? '/index' : pagePath}.html`;
}
