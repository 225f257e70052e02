// Part of the build: fails it when a public page's JavaScript loaded up front (the entry and the page's own chunk,
// with every chunk they import statically, from the Vite manifest) passes its gzip budget.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { publicPages } from './public-pages.ts';

const WEB_DIR = 'dist/web';

type ManifestChunk = { file: string; imports?: string[] };
const manifest = JSON.parse(readFileSync(path.join(WEB_DIR, '.vite/manifest.json'), 'utf8')) as Record<
  string,
  ManifestChunk
>;

/** The chunk's file and those of every chunk it imports statically, however deep. */
function staticClosure(key: string, files = new Set<string>()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`The Vite manifest has no chunk for ${key}`);
  if (files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(imported, files);
  return files;
}

const gzipBytes = (file: string) => gzipSync(readFileSync(path.join(WEB_DIR, file)), { level: 9 }).length;
const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

const entryFiles = staticClosure('index.html');
const rows = publicPages.map((page) => {
  const files = staticClosure(page.module, new Set(entryFiles));
  const bytes = [...files].reduce((sum, file) => sum + gzipBytes(file), 0);
  return {
    page: page.path,
    'JS KB gzip': kb(bytes),
    'budget KB': kb(page.scriptBudget),
    files: files.size,
    ok: bytes <= page.scriptBudget ? 'yes' : 'NO',
  };
});

console.log('JavaScript each public page loads up front (entry + page chunk, static imports followed)');
console.table(rows);
if (rows.some((row) => row.ok !== 'yes')) {
  console.error(
    'A public page loads more JavaScript up front than its budget: move what it does not need into a lazy chunk.',
  );
  process.exit(1);
}
