// Part of the build: fails it when a public page's JavaScript passes its gzip budgets: up front, the scripts its
// prerendered HTML names with every chunk they import statically (from the Vite manifest); on first use, the app a
// boot script loads with the page's own chunk and their imports.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { prerenderedPageFile } from '../src/shared/prerendered-pages.ts';
import { publicPages } from './public-pages.ts';

const WEB_DIR = 'dist/web';

type ManifestChunk = { file: string; imports?: string[] };
const manifest = JSON.parse(readFileSync(path.join(WEB_DIR, '.vite/manifest.json'), 'utf8')) as Record<
  string,
  ManifestChunk
>;
const keyOfFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));

/** The chunk's file and those of every chunk it imports statically, however deep. */
function staticClosure(key: string, files = new Set<string>()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`The Vite manifest has no chunk for ${key}`);
  if (files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(imported, files);
  return files;
}

/**
 * The files of the scripts a page's HTML names: loaded up front, each script's `src` and each module preload; on
 * first use, the app a boot script loads.
 */
function scriptsNamedIn(html: string) {
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag);
  const preloads = [...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*>/g)].map(([tag]) => tag);
  const attribute = (tags: string[], name: string) =>
    tags.flatMap((tag) => [...tag.matchAll(new RegExp(`\\b${name}="/([^"]+)"`, 'g'))].map(([, file]) => file!));
  return {
    upFront: [...attribute(scripts, 'src'), ...attribute(preloads, 'href')],
    inline: [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(([, script]) => script!),
    onFirstUse: attribute(scripts, 'data-app'),
  };
}

const gzipBytes = (file: string) => gzipSync(readFileSync(path.join(WEB_DIR, file)), { level: 9 }).length;
const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/** The files of these scripts with every chunk they import statically (from the Vite manifest), and their gzip size. */
function scriptsWithImports(pagePath: string, files: string[], modules: string[] = []) {
  const closure = new Set<string>();
  for (const file of files) {
    const key = keyOfFile.get(file);
    if (!key) throw new Error(`${pagePath} names ${file}, which the Vite manifest does not know`);
    staticClosure(key, closure);
  }
  for (const module of modules) staticClosure(module, closure);
  return { files: closure.size, bytes: [...closure].reduce((sum, file) => sum + gzipBytes(file), 0) };
}

const rows = publicPages.map((page) => {
  // Both copies of a page (with and without payments) name the same scripts.
  const file = prerenderedPageFile(page.path, { payments: true });
  const scripts = scriptsNamedIn(readFileSync(path.join(WEB_DIR, file), 'utf8'));
  if (!page.form && scripts.upFront.length + scripts.inline.length > 0)
    throw new Error(`${page.path} should work without scripts, but names some`);
  if (page.form && scripts.onFirstUse.length === 0)
    throw new Error(`${page.path} has a form but loads no app to send it`);
  const files = scriptsWithImports(page.path, scripts.upFront);
  // An inline script goes up front in the page itself.
  const inlineBytes = scripts.inline.reduce((sum, script) => sum + gzipSync(script, { level: 9 }).length, 0);
  const upFront = { files: files.files, bytes: files.bytes + inlineBytes };
  // The app's entry loads the page's chunk before it hydrates the page.
  const onFirstUse = scriptsWithImports(page.path, scripts.onFirstUse, page.form ? [page.module] : []);
  const ok = upFront.bytes <= page.scriptBudget && onFirstUse.bytes <= page.firstUseBudget;
  return {
    page: page.path,
    'up front KB': kb(upFront.bytes),
    'budget KB': kb(page.scriptBudget),
    'first use KB': kb(onFirstUse.bytes),
    'first use budget KB': kb(page.firstUseBudget),
    files: upFront.files + onFirstUse.files,
    ok: ok ? 'yes' : 'NO',
  };
});

console.log(
  'JavaScript gzip each public page loads up front (the scripts its HTML names), and on its first use (the app and the page chunk a boot script loads)',
);
console.table(rows);
if (rows.some((row) => row.ok !== 'yes')) {
  console.error('A public page loads more JavaScript than its budget: move what it does not need into a lazy chunk.');
  process.exit(1);
}
