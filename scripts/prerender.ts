// Part of the web build: renders each public page to HTML (src/web/entry-server.tsx, bundled for Node here) into
// dist/web/prerendered/ (src/shared/prerendered-pages.ts), from the built index.html. The server sends these
// for the exact paths; the browser hydrates them (src/web/main.tsx).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { build } from 'vite';
import { prerenderedPageFile } from '../src/shared/prerendered-pages.ts';
import { publicPages } from './public-pages.ts';

const WEB_DIR = 'dist/web';
const SSR_DIR = 'dist/prerender';

await build({
  logLevel: 'warn',
  build: { ssr: 'entry-server.tsx', outDir: `../../${SSR_DIR}`, emptyOutDir: true, manifest: false },
});
const { renderPage } = (await import(pathToFileURL(path.resolve(SSR_DIR, 'entry-server.js')).href)) as {
  renderPage: (pagePath: string) => Promise<string>;
};

const ROOT = '<div id="root"></div>';
const shell = readFileSync(path.join(WEB_DIR, 'index.html'), 'utf8')
  // The page paints from its HTML and stylesheet: scripts preloaded beside them would share the phone's bandwidth
  // and delay that first paint. The entry script loads its imports itself, then the page's chunk, then hydrates.
  .replaceAll(/\s*<link rel="modulepreload"[^>]*>/g, '');
if (!shell.includes(ROOT)) throw new Error(`index.html has no ${ROOT} to fill`);

/**
 * The CSP refuses style attributes in markup (a few Radix parts render them): each becomes a data attribute that
 * a rule of the inline-styles stylesheet styles until main.tsx applies it through the CSSOM, which the CSP allows.
 */
const inlineStyles = new Set<string>();
const INLINE_STYLES_FILE = path.posix.join(path.posix.dirname(prerenderedPageFile('/')), 'inline-styles.css');
function moveInlineStyles(body: string) {
  return body.replace(/ style="([^"]*)"/g, (_attribute, css: string) => {
    if (/[&<>\\]/.test(css)) throw new Error(`Cannot move the escaped inline style "${css}" to the stylesheet`);
    inlineStyles.add(css);
    return ` data-prerendered-style="${css}"`;
  });
}

const write = (file: string, text: string) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  writeFileSync(`${file}.br`, brotliCompressSync(text));
  writeFileSync(`${file}.gz`, gzipSync(text, { level: 9 }));
};

rmSync(path.join(WEB_DIR, path.dirname(INLINE_STYLES_FILE)), { recursive: true, force: true });
for (const page of publicPages) {
  const body = moveInlineStyles(await renderPage(page.path));
  const stylesheet = body.includes('data-prerendered-style')
    ? `<link rel="stylesheet" href="/${INLINE_STYLES_FILE}">`
    : '';
  const html = shell
    .replace('<script type="module"', `${stylesheet}<script type="module"`)
    .replace(ROOT, `<div id="root">${body}</div>`);
  write(path.join(WEB_DIR, prerenderedPageFile(page.path)), html);
}
write(
  path.join(WEB_DIR, INLINE_STYLES_FILE),
  [...inlineStyles].map((css) => `[data-prerendered-style="${css}"]{${css}}`).join('\n'),
);
rmSync(SSR_DIR, { recursive: true, force: true });
console.log(`Prerendered ${publicPages.length} public pages`);
