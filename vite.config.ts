import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { serviceWorker } from './scripts/service-worker-build.ts';

const webRoot = fileURLToPath(new URL('./src/web', import.meta.url));
// The API server of `npm run dev` (scripts/dev.ts).
const apiTarget = `http://localhost:${process.env.DEV_API_PORT ?? '3001'}`;

/**
 * The server sends `style-src 'self'`, so no library may add a <style> element at run time
 * (the browser blocks it and logs a CSP error). Two dependencies do:
 * - sonner inserts its stylesheet on import: we drop that call and bundle `sonner/dist/styles.css`
 *   into our own stylesheet instead (see app/styles.css);
 * - react-style-singleton (used by Radix's scroll lock) adds <style> tags: it is swapped for a
 *   drop-in that uses constructed stylesheets (CSSOM, which CSP allows).
 */
function cspSafeVendorStyles(): Plugin {
  const sonnerInsert = 'function __insertCSS(code) {';
  return {
    name: 'virtual-help:csp-safe-vendor-styles',
    enforce: 'pre',
    transform: {
      filter: { id: /[\\/]node_modules[\\/]sonner[\\/]dist[\\/]index\.m?js$/ },
      handler(code) {
        if (!code.includes(sonnerInsert)) {
          this.warn('sonner no longer defines __insertCSS: check that it adds no <style> element at run time');
          return null;
        }
        return { code: code.replace(sonnerInsert, `${sonnerInsert} return;`), map: null };
      },
    },
  };
}

/**
 * Vite writes the stylesheet after the entry script and its ~30 module preloads. Over HTTP/1.1 (six connections)
 * the stylesheet, which alone holds up the first paint, then waits for a free connection: it goes first.
 */
function stylesheetFirst(): Plugin {
  return {
    name: 'virtual-help:stylesheet-first',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const stylesheets = html.match(/\s*<link rel="stylesheet"[^>]*>/g) ?? [];
        const withoutStylesheets = stylesheets.reduce((rest, link) => rest.replace(link, ''), html);
        const firstScript = withoutStylesheets.search(/\s*<script type="module"/);
        if (firstScript < 0) return html;
        return withoutStylesheets.slice(0, firstScript) + stylesheets.join('') + withoutStylesheets.slice(firstScript);
      },
    },
  };
}

/**
 * react-router's package exports always point at its development build (warnings on, larger):
 * remix-run/react-router#14102. Production bundles take the production build it also ships.
 */
const reactRouterProductionBuild = [
  {
    find: /^react-router$/,
    replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url)),
  },
  {
    find: /^react-router\/dom$/,
    replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/dom-export.mjs', import.meta.url)),
  },
];

/** The entry itself stays a small file of its own, so that the shell's chunk is the one every page shares. */
const isEntry = (id: string) => /src[\\/]web[\\/](main\.tsx|index\.html)$/.test(id);
/**
 * The boot script and what it imports (src/web/boot/, and page-contract/, which the app shares): the only script a
 * page with a form loads up front.
 */
const isBootPart = (id: string) => /src[\\/]web[\\/](boot|page-contract)[\\/]/.test(id);

/**
 * Over HTTP/1.1 a phone fetches six files at a time, each a round trip: the default split left the sign-in page
 * with 50 files and the chat with 82. Everything the entry imports statically becomes one `shell` chunk, and a
 * shared chunk under 32 KB is copied into each page that uses it instead of being a file of its own (Rolldown's
 * inlining, which keeps modules running in their source order).
 */
const codeSplitting = {
  groups: [
    {
      name: 'shell',
      tags: ['$initial' as const],
      test: (id: string) => !isEntry(id) && !isBootPart(id),
      // The boot script's parts that the app uses too stay out of the shell: each gets its own copy (inlined below).
      includeDependenciesRecursively: false,
    },
  ],
  // A chunk with a stylesheet stays a file: its CSS is linked by the chunk's name.
  experimentalInlineCommonChunks: { maxSize: 32 * 1024, exclude: /\.css$/ },
};

export default defineConfig(({ command, isSsrBuild }) => ({
  root: webRoot,
  publicDir: 'public',
  plugins: [
    cspSafeVendorStyles(),
    react(),
    tailwindcss(),
    stylesheetFirst(),
    serviceWorker({ webRoot }),
    // Brotli and gzip copies beside every text asset; the server sends the best one the browser accepts.
    compression({
      algorithms: ['brotliCompress', 'gzip'],
      threshold: 1024,
      include: /\.(js|css|html|svg|json|txt|webmanifest)$/,
    }),
  ],
  // The copyright year of the prerendered pages, which the browser's hydration must render the same
  // (app/layout/site-footer.tsx).
  define: { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()) },
  resolve: {
    alias: [
      {
        find: /^react-style-singleton$/,
        replacement: fileURLToPath(new URL('./src/web/lib/vendor/style-singleton.ts', import.meta.url)),
      },
      ...(command === 'build' ? reactRouterProductionBuild : []),
    ],
  },
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    // dist/web/.vite/manifest.json: the build's budget check follows each page's static imports in it.
    manifest: true,
    // Nothing inlined as data: URLs or inline code; every asset is a same-origin file.
    assetsInlineLimit: 0,
    rolldownOptions: isSsrBuild
      ? {}
      : {
          // boot.ts: the one script of a page with a form (scripts/prerender.ts), loading the app on its first use.
          input: { index: `${webRoot}/index.html`, boot: `${webRoot}/boot/boot.ts` },
          // Inlining shared chunks needs the entries' export lists to be free to change (they export nothing).
          preserveEntrySignatures: false,
          output: { codeSplitting },
        },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/socket.io': { target: apiTarget, ws: true, changeOrigin: false },
      // Mail written to the outbox when no SMTP server is set (README: Set up).
      '/dev/mailbox': { target: apiTarget, changeOrigin: false },
    },
  },
  preview: {
    port: 4173,
  },
}));
