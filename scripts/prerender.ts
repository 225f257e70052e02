// Part of the web build: renders each public page to HTML (src/web/entry-server.tsx, bundled for Node here) into
// dist/web/prerendered/ (src/shared/prerendered-pages.ts), from the built index.html. The server sends these
// for the exact paths; the browser hydrates them (src/web/main.tsx), but for a whole page, which names no script.
// index.html itself gets the plain frame, and a signed-in page with a frame of its own gets index.html with that frame
// (src/web/app/route-handle.ts).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { build } from 'vite';
import { pageFrameFile, prerenderedPageFile } from '../src/shared/prerendered-pages.ts';
import { escapeHtml } from '../src/shared/rules/text.ts';
import type * as EntryServer from '../src/web/entry-server.tsx';
import { publicPages } from './public-pages.ts';

const WEB_DIR = 'dist/web';
const SSR_DIR = 'dist/prerender';

await build({
  logLevel: 'warn',
  build: { ssr: 'entry-server.tsx', outDir: `../../${SSR_DIR}`, emptyOutDir: true, manifest: false },
});
const { renderPage, renderFrame, renderPageFrame, framedPages } = (await import(
  pathToFileURL(path.resolve(SSR_DIR, 'entry-server.js')).href
)) as typeof EntryServer;

const ROOT = '<div id="root"></div>';
const manifest = JSON.parse(readFileSync(path.join(WEB_DIR, '.vite/manifest.json'), 'utf8')) as Record<
  string,
  { file: string }
>;
const entryScript = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/;
const indexHtml = readFileSync(path.join(WEB_DIR, 'index.html'), 'utf8');
// A prerendered page paints from its HTML and stylesheet: scripts fetched beside them would share the phone's
// bandwidth and delay that first paint.
const withoutModulePreloads = indexHtml.replaceAll(/\s*<link rel="modulepreload"[^>]*>/g, '');
// A page with a form names only the boot script (src/web/boot.ts), which loads the app's entry after the first
// paint; the entry loads its imports itself, then the page's chunk, then hydrates. (It keeps the session's
// preload: one small answer, which the app asks for first.)
const shell = withoutModulePreloads.replace(
  entryScript,
  (_script, entry: string) =>
    `<script type="module" crossorigin src="/${manifest['boot.ts']!.file}" data-app="${entry}"></script>`,
);
if (!shell.includes(ROOT)) throw new Error(`index.html has no ${ROOT} to fill`);
if (!shell.includes('data-app=')) throw new Error('index.html has no entry script for the boot script to load');
// A whole page works without scripts: it names none, asks for nothing the app would use, and does not say that the
// app needs scripts.
const wholePageShell = withoutModulePreloads
  .replace(entryScript, '')
  .replaceAll(/\s*<!--[^>]*-->\s*<link rel="preload"[^>]*as="fetch"[^>]*>/g, '')
  .replace(/\s*<noscript>[\s\S]*?<\/noscript>/, '');
if (/<script|<noscript|as="fetch"/.test(wholePageShell)) {
  throw new Error('index.html names a script or a request that a whole page would keep');
}

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

/** Writes the file with its brotli and gzip copies; `compressed: false` for a whole page, which the server fills in. */
const write = (file: string, text: string, { compressed = true } = {}) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  if (!compressed) return;
  writeFileSync(`${file}.br`, brotliCompressSync(text));
  writeFileSync(`${file}.gz`, gzipSync(text, { level: 9 }));
};

/** The HTML page with `body` in its root, and the inline-styles stylesheet when the body needs it. */
function withBody(html: string, root: string, body: string) {
  const stylesheet = body.includes('data-prerendered-style')
    ? `<link rel="stylesheet" href="/${INLINE_STYLES_FILE}">`
    : '';
  return html.replace('</head>', `${stylesheet}</head>`).replace(ROOT, `${root}${body}</div>`);
}

const TITLE = /<title>[^<]*<\/title>/;
if (!TITLE.test(indexHtml)) throw new Error('index.html has no <title> to set');
// The page's own title, so that the tab and search results name it before any script.
const withTitle = (html: string, title: string) => html.replace(TITLE, () => `<title>${escapeHtml(title)}</title>`);

rmSync(path.join(WEB_DIR, path.dirname(INLINE_STYLES_FILE)), { recursive: true, force: true });
for (const page of publicPages) {
  const { body, title } = await renderPage(page.path, { whole: page.whole });
  // A part still loading (a lazy component) would stay so on a page without scripts.
  if (page.whole && /<template|<!--\$[!?]-->/.test(body))
    throw new Error(`${page.path} renders a part that waits for scripts`);
  const html = withBody(page.whole ? wholePageShell : shell, '<div id="root">', moveInlineStyles(body));
  write(path.join(WEB_DIR, prerenderedPageFile(page.path)), withTitle(html, title), { compressed: !page.whole });
}
// Every other page path gets index.html: it keeps its script and module preloads (nothing there to paint before
// them but the frame), and main.tsx renders the app in place of the frame.
write(
  path.join(WEB_DIR, 'index.html'),
  withBody(indexHtml, '<div id="root" data-frame>', moveInlineStyles(await renderFrame())),
);
// A page with a frame of its own gets index.html with that frame: it paints the page's heading before its scripts.
const framed = framedPages();
for (const page of framed) {
  const { body, title } = await renderPageFrame(page);
  const html = withBody(indexHtml, '<div id="root" data-frame="page">', moveInlineStyles(body));
  write(path.join(WEB_DIR, pageFrameFile(page.path, page.role)), withTitle(html, title));
}
write(
  path.join(WEB_DIR, INLINE_STYLES_FILE),
  [...inlineStyles].map((css) => `[data-prerendered-style="${css}"]{${css}}`).join('\n'),
);
rmSync(SSR_DIR, { recursive: true, force: true });
const counts = `${publicPages.length} public pages, ${framed.length} frames of signed-in pages`;
console.log(`Prerendered ${counts} and the frame of the others`);
