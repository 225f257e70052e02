// Part of the web build (vite.config.ts): the app's icons, and the service worker (src/web/service-worker/) with the
// list of this build's files it keeps and a version that changes whenever one of them does (docs/decisions/0055).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import type { Plugin } from 'vite';
import { OFFLINE_PAGE, SERVICE_WORKER_URL } from '../src/web/service-worker/contract.ts';
import { APP_ICONS, drawAppIcon } from './app-icons.ts';

/** Public files the offline page needs, kept beside the hashed scripts and stylesheets. */
const KEPT_PUBLIC_FILES = [OFFLINE_PAGE, '/offline.css', '/favicon.svg', '/manifest.webmanifest'];

export function serviceWorker({ webRoot }: { webRoot: string }): Plugin {
  return {
    name: 'virtual-help:service-worker',
    apply: 'build',
    async generateBundle(_options, bundle) {
      if (this.environment.config.build.ssr) return;
      for (const icon of APP_ICONS)
        this.emitFile({ type: 'asset', fileName: icon.fileName, source: drawAppIcon(icon) });
      // Every script and stylesheet (a page's chunks load on demand, offline too); fonts and images as they are used.
      const hashed = Object.keys(bundle)
        .filter((file) => file.startsWith('assets/') && /\.(js|css)$/.test(file))
        .sort()
        .map((file) => `/${file}`);
      const publicFiles = KEPT_PUBLIC_FILES.map((file) => ({
        file,
        content: readFileSync(path.join(webRoot, 'public', file)),
      }));
      const version = createHash('sha256');
      for (const file of hashed) version.update(file);
      for (const { file, content } of publicFiles) version.update(file).update(content);
      const result = await build({
        entryPoints: [path.join(webRoot, 'service-worker/service-worker.ts')],
        bundle: true,
        minify: true,
        write: false,
        format: 'iife',
        target: 'es2022',
        define: {
          __PRECACHE__: JSON.stringify({
            version: version.digest('base64url').slice(0, 16),
            files: [...publicFiles.map(({ file }) => file), ...hashed],
          }),
        },
      });
      this.emitFile({ type: 'asset', fileName: SERVICE_WORKER_URL.slice(1), source: result.outputFiles[0]!.text });
    },
  };
}
