// Part of the web build: renders each public page to HTML (src/web/entry-server.tsx, bundled for Node here) into
// dist/web/prerendered/ (src/shared/prerendered-pages.ts), from the built index.html. The server sends these to a
// signed-out visitor for their paths. They work without scripts; a page with a form names the boot script, and the
// browser hydrates it once the visitor uses it (src/web/boot/boot.ts, src/web/main.tsx). index.html itself gets the
// plain frame, and a signed-in page with a frame of its own gets index.html with that frame
// (src/web/app/route-handle.ts).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { build } from 'vite';
import {
  pageFrameFile,
  prerenderedPageFile,
  SERVER_RENDERED_SLOT,
  serverRenderedTemplateFile,
} from '../src/shared/prerendered-pages.ts';
import { settingsMetaTags } from '../src/shared/public-settings.ts';
import { escapeHtml } from '../src/shared/rules/text.ts';
import type * as EntryServer from '../src/web/entry-server.tsx';
import { publicPages } from './public-pages.ts';

const WEB_DIR = 'dist/web';
const SSR_DIR = 'dist/prerender';

await build({
  logLevel: 'warn',
  build: { ssr: 'entry-server.tsx', outDir: `../../${SSR_DIR}`, emptyOutDir: true, manifest: false },
});
const { renderPage, renderFrame, renderPageFrame, framedPages, holdBeforeBootScript, renderServerRenderedTemplate } =
  (await import(pathToFileURL(path.resolve(SSR_DIR, 'entry-server.js')).href)) as typeof EntryServer;

const ROOT = '<div id="root"></div>';
const manifest = JSON.parse(readFileSync(path.join(WEB_DIR, '.vite/manifest.json'), 'utf8')) as Record<
  string,
  { file: string }
>;
const entryScript = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/;
const indexHtml = readFileSync(path.join(WEB_DIR, 'index.html'), 'utf8');
const appEntry = indexHtml.match(entryScript)?.[1];
if (!appEntry) throw new Error('index.html has no entry script for the boot script to load');
// A public page is whole: it works without scripts, asks for nothing the app would use, and does not say that the
// app needs scripts. Nor does it preload modules, which would share the phone's bandwidth with the stylesheet.
const wholePageShell = indexHtml
  .replaceAll(/\s*<link rel="modulepreload"[^>]*>/g, '')
  .replace(entryScript, '')
  .replaceAll(/\s*<!--[^>]*-->\s*<link rel="preload"[^>]*as="fetch"[^>]*>/g, '')
  .replace(/\s*<noscript>[\s\S]*?<\/noscript>/, '');
if (/<script|<noscript|as="fetch"/.test(wholePageShell)) {
  throw new Error('index.html names a script or a request that a whole page would keep');
}
// A page with a form names one script, the boot script (src/web/boot/boot.ts), which loads the app's entry when the
// visitor first uses the page; the entry loads its imports itself, then the page's chunk, and hydrates the page from
// the settings in the head (the server fills them in, as in the page). Before it, inline, the script that holds a
// submit made before the boot script runs (src/web/page-contract/hold-before-boot.ts); the CSP admits it by its hash.
if (/<\/script|<!--/i.test(holdBeforeBootScript)) throw new Error('The inline script would end its <script> element');
const formPageShell = ({ payments }: { payments: boolean }) =>
  wholePageShell.replace(
    '</head>',
    `${settingsMetaTags({ payments })}<script>${holdBeforeBootScript}</script><script type="module" crossorigin src="/${manifest['boot/boot.ts']!.file}" data-app="${appEntry}"></script></head>`,
  );

/**
 * The CSP refuses style attributes in markup (a few Radix parts render them): each becomes a data attribute that
 * a rule of the inline-styles stylesheet styles until main.tsx applies it through the CSSOM, which the CSP allows.
 */
const inlineStyles = new Set<string>();
const INLINE_STYLES_FILE = path.posix.join(
  path.posix.dirname(prerenderedPageFile('/', { payments: true })),
  'inline-styles.css',
);
function moveInlineStyles(body: string) {
  return body.replace(/ style="([^"]*)"/g, (_attribute, css: string) => {
    if (/[&<>\\]/.test(css)) throw new Error(`Cannot move the escaped inline style "${css}" to the stylesheet`);
    inlineStyles.add(css);
    return ` data-prerendered-style="${css}"`;
  });
}

/** Writes the file with its brotli and gzip copies; `compressed: false` for a public page, which the server fills. */
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
// Each page twice: as a site that takes payments shows it, and without a word of paying for PAYMENTS_PROVIDER=none;
// the server sends the copy of its mode (docs/decisions/0046).
for (const page of publicPages) {
  for (const payments of [true, false]) {
    const { body, title } = await renderPage(page.path, { payments });
    // A part still loading (a lazy component) would stay so until the visitor uses the page, or for ever without
    // scripts.
    if (/<template|<!--\$[!?]-->/.test(body)) throw new Error(`${page.path} renders a part that waits for scripts`);
    const shell = page.form ? formPageShell({ payments }) : wholePageShell;
    const html = withBody(shell, '<div id="root">', moveInlineStyles(body));
    // Not compressed here: the server fills its settings in, then compresses.
    write(path.join(WEB_DIR, prerenderedPageFile(page.path, { payments })), withTitle(html, title), {
      compressed: false,
    });
  }
}
// The page a server-rendered public page goes into (a tutor's page for visitors), whole like the content pages: the
// server fills its settings, its head and the slot (src/server/http/spa.ts).
for (const payments of [true, false]) {
  const body = moveInlineStyles(await renderServerRenderedTemplate({ payments }));
  if (!body.includes(SERVER_RENDERED_SLOT)) throw new Error('The server-rendered pages’ template has no slot');
  const html = withBody(wholePageShell, '<div id="root">', body);
  write(path.join(WEB_DIR, serverRenderedTemplateFile({ payments })), html, { compressed: false });
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
