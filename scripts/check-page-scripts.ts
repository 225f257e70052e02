// Part of the build: fails it when a public page's JavaScript loaded up front passes its gzip budget: the scripts
// its prerendered HTML names (the boot script, and the app's entry it loads), with every chunk they import
// statically from the Vite manifest, and, when it loads the app, the page's own chunk and its imports.
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

/** The files of the scripts a page's HTML names: a script's src and the entry a boot script loads (data-app). */
function scriptsNamedIn(html: string) {
  return [...html.matchAll(/<script\b[^>]*>/g)].flatMap(([tag]) =>
    [...tag.matchAll(/\b(?:src|data-app)="\/([^"]+)"/g)].map(([, file]) => file!),
  );
}

const gzipBytes = (file: string) => gzipSync(readFileSync(path.join(WEB_DIR, file)), { level: 9 }).length;
const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

const rows = publicPages.map((page) => {
  const html = readFileSync(path.join(WEB_DIR, prerenderedPageFile(page.path)), 'utf8');
  const files = new Set<string>();
  for (const file of scriptsNamedIn(html)) {
    const key = keyOfFile.get(file);
    if (!key) throw new Error(`${page.path} names ${file}, which the Vite manifest does not know`);
    staticClosure(key, files);
  }
  if (files.has(manifest['index.html']!.file)) staticClosure(page.module, files);
  if (page.whole && files.size > 0) throw new Error(`${page.path} should work without scripts, but names some`);
  const bytes = [...files].reduce((sum, file) => sum + gzipBytes(file), 0);
  return {
    page: page.path,
    'JS KB gzip': kb(bytes),
    'budget KB': kb(page.scriptBudget),
    files: files.size,
    ok: bytes <= page.scriptBudget ? 'yes' : 'NO',
  };
});

console.log('JavaScript each public page loads up front (the scripts its HTML names, the app with the page chunk)');
console.table(rows);
if (rows.some((row) => row.ok !== 'yes')) {
  console.error(
    'A public page loads more JavaScript up front than its budget: move what it does not need into a lazy chunk.',
  );
  process.exit(1);
}
