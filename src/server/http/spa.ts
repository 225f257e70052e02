import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROLES, type Role } from '#shared/constants.ts';
import type { ApiErrorBody } from '#shared/errors.ts';
import {
  isPublicPageFileOf,
  pageFrameFile,
  prerenderedPageFile,
  SERVER_RENDERED_SLOT,
  serverRenderedTemplateFile,
} from '#shared/prerendered-pages.ts';
import { fillPublicSettings, type PublicSettings } from '#shared/public-settings.ts';
import { escapeHtml } from '#shared/rules/text.ts';

/** The prerendered pages and frames the build wrote (paths relative to the web directory, with / separators). */
function listPrerenderedPages(webDir: string) {
  const directory = path.join(webDir, prerenderedPageFile('/', { payments: true }), '..');
  if (!existsSync(directory)) return new Set<string>();
  const files = readdirSync(directory, { recursive: true, encoding: 'utf8' });
  return new Set(files.map((file) => path.posix.join(path.basename(directory), file.split(path.sep).join('/'))));
}

type Encoding = 'br' | 'gzip';
type WholePage = {
  html: string;
  etag: string;
  encoded: (encoding: Encoding) => Buffer;
  /**
   * A page with a form, which names the boot script and which the app hydrates: it goes out only for its path without
   * a query string, because the app reads the query string and the HTML was rendered without one. A page without
   * scripts reads none: it goes out whatever the query string.
   */
  isHydrated: boolean;
};

const compressors: Record<Encoding, (html: string) => Buffer> = {
  br: (html) => brotliCompressSync(html),
  gzip: (html) => gzipSync(html, { level: 9 }),
};

/**
 * The public pages among them, all whole (they work without scripts: docs/decisions/0019-whole-content-pages.md;
 * a page with a form names the boot script: 0021), by file, in the copy for the server's payments mode (0046), with
 * the server's settings in place of the placeholders they were rendered with, compressed once, and with an entity
 * tag, so that a browser's next visit gets a 304.
 */
function readWholePages(webDir: string, files: Set<string>, settings: PublicSettings) {
  const pages = new Map<string, WholePage>();
  for (const file of files) {
    if (!isPublicPageFileOf(file, settings)) continue;
    const prerendered = readFileSync(path.join(webDir, file), 'utf8');
    const html = fillPublicSettings(prerendered, settings);
    // Weak: the same tag for each encoding of the page.
    const etag = `W/"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
    // Compressed at the first request that wants each encoding, not at start-up.
    const encoded = new Map<Encoding, Buffer>();
    pages.set(file, {
      html,
      etag,
      isHydrated: html.includes('<script'),
      encoded(encoding) {
        let body = encoded.get(encoding);
        if (!body) {
          body = compressors[encoding](html);
          encoded.set(encoding, body);
        }
        return body;
      },
    });
  }
  return pages;
}

/** The page server-rendered pages go into, in the server's payments mode with its settings filled in, if built. */
function readServerRenderedTemplate(webDir: string, settings: PublicSettings) {
  const file = path.join(webDir, serverRenderedTemplateFile(settings));
  return existsSync(file) ? fillPublicSettings(readFileSync(file, 'utf8'), settings) : undefined;
}

/** A public page the server renders at each request (a tutor's page for visitors), and its status. */
export type ServerRenderedPage = { status: 200 | 404; title: string; head: string; body: string };

/** The template with the page's title, its head's tags (in place of the site's description) and its body. */
const fillTemplate = (template: string, page: ServerRenderedPage) =>
  template
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(page.title)}</title>`)
    .replace(/\s*<meta\s+name="description"[^>]*>/, '')
    .replace('</head>', () => `${page.head}</head>`)
    .replace(SERVER_RENDERED_SLOT, () => page.body);

/** The CSP source that admits an inline script: its SHA-256. */
const scriptHashSource = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

/**
 * What the web build wrote, read once at start-up: whether there is one, its prerendered pages and frames, the
 * public pages among them ready to send, and the hashes of their inline scripts, which the CSP admits (the one that
 * holds a form's submit until the boot script runs: src/web/page-contract/hold-before-boot.ts).
 */
export function readWebBuild(webDir: string, publicSettings: PublicSettings) {
  const prerenderedPages = listPrerenderedPages(webDir);
  const wholePages = readWholePages(webDir, prerenderedPages, publicSettings);
  const inlineScripts = new Set<string>();
  for (const { html } of wholePages.values()) {
    for (const [, script] of html.matchAll(/<script>([\s\S]*?)<\/script>/g)) inlineScripts.add(script!);
  }
  return {
    webDir,
    payments: publicSettings.payments,
    hasBuild: existsSync(path.join(webDir, 'index.html')),
    prerenderedPages,
    wholePages,
    serverRenderedTemplate: readServerRenderedTemplate(webDir, publicSettings),
    inlineScriptHashes: [...inlineScripts].map(scriptHashSource),
  };
}

export type WebBuild = ReturnType<typeof readWebBuild>;

const encodings = new Negotiator<Encoding>({ supportedValues: ['br', 'gzip'] });

export type SpaOptions = {
  /** Whether the request carries a session cookie (valid or not: the app finds out). */
  hasSessionCookie: (request: FastifyRequest) => boolean;
  /** The signed-in visitor's role, for a page whose frame differs by role; null when signed out. */
  sessionRole: (request: FastifyRequest) => Promise<Role | null>;
  /**
   * How to render the page the server renders for a visitor at this path (a tutor's page), or undefined for any other
   * path: known from the path alone, so that other pages cost no session lookup.
   */
  publicPageAt: (pagePath: string) => (() => Promise<ServerRenderedPage>) | undefined;
};

/**
 * Serves the built web app: hashed assets cached for a year; a public page prerendered at build time as its
 * whole HTML, to a signed-out visitor only (with a session cookie, the app, index.html, shows it with the visitor's
 * own top bar), and a page with a form only without a query string, which it may read; a public page rendered at each
 * request (a tutor's page) to a signed-out visitor, in the build's template; a signed-in page with a frame
 * of its own as index.html with that frame; every other page path answered with index.html. All carry the same CSP
 * (set for every answer).
 */
export async function registerSpa(
  app: FastifyInstance,
  { webDir, payments, hasBuild, prerenderedPages, wholePages, serverRenderedTemplate }: WebBuild,
  { hasSessionCookie, sessionRole, publicPageAt }: SpaOptions,
) {
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each text asset (vite.config.ts): the best one accepted is sent.
      preCompressed: true,
      // The prerendered pages go out by their own paths only (below): a whole page's file holds placeholders.
      allowedPath: (pathName) => !(pathName.startsWith('/prerendered/') && pathName.endsWith('.html')),
      setHeaders(reply, filePath) {
        reply.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  /** Whether the build wrote a frame of the page's own: one for everyone, or one per role. */
  const hasPageFrame = (pagePath: string) =>
    [pageFrameFile(pagePath), ...ROLES.map((role) => pageFrameFile(pagePath, role))].some((file) =>
      prerenderedPages.has(file),
    );
  /** The frame a visitor with a session gets: the page's one frame, or their role's; undefined for anyone else. */
  async function pageFrameFor(request: FastifyRequest, pagePath: string) {
    if (!hasSessionCookie(request)) return undefined;
    const shared = pageFrameFile(pagePath);
    if (prerenderedPages.has(shared)) return shared;
    // Unknown (the database not answering, say): the plain frame will do.
    const role = await sessionRole(request).catch(() => null);
    const own = role ? pageFrameFile(pagePath, role) : undefined;
    return own && prerenderedPages.has(own) ? own : undefined;
  }

  app.setNotFoundHandler(async (request, reply) => {
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !request.url.startsWith('/api/') &&
      !request.url.startsWith('/socket.io/');
    const [pagePath = '', query] = request.url.split('?');
    if (isPage && hasBuild && !path.extname(pagePath)) {
      reply.header('cache-control', 'no-cache').type('text/html');
      const wholePage = wholePages.get(prerenderedPageFile(pagePath, { payments }));
      if (wholePage !== undefined && !(wholePage.isHydrated && query !== undefined)) {
        // The same address is the whole page or the app, by the cookie: caches must keep them apart.
        reply.header('vary', 'cookie');
        if (hasSessionCookie(request)) return reply.sendFile('index.html');
        reply.header('vary', 'cookie, accept-encoding').header('etag', wholePage.etag);
        if (request.headers['if-none-match']?.split(/\s*,\s*/).includes(wholePage.etag)) {
          return reply.code(304).send();
        }
        const encoding = encodings.negotiate(request.headers['accept-encoding'] ?? '');
        if (!encoding) return reply.send(wholePage.html);
        return reply.header('content-encoding', encoding).send(wholePage.encoded(encoding));
      }
      // A page rendered at each request goes, whole, to a visitor without a valid session; with one, the app shows
      // it. A cookie alone decides nothing here: the app's page needs a session, so an expired or unknown cookie would
      // send the visitor to sign in rather than show them the page.
      const renderPublicPage = serverRenderedTemplate === undefined ? undefined : publicPageAt(pagePath);
      if (renderPublicPage && (await sessionRole(request).catch(() => null)) === null) {
        const page = await renderPublicPage();
        return reply.header('vary', 'cookie').code(page.status).send(fillTemplate(serverRenderedTemplate!, page));
      }
      // A signed-in page with a frame of its own (whatever the query string: the frame reads none) goes to a
      // visitor with a session; one without is sent on to sign in by the app, from the plain frame.
      if (hasPageFrame(pagePath)) {
        reply.header('vary', 'cookie');
        return reply.sendFile((await pageFrameFor(request, pagePath)) ?? 'index.html');
      }
      return reply.sendFile('index.html');
    }
    return reply.status(404).send({ code: 'NOT_FOUND', message: 'Not found' } satisfies ApiErrorBody);
  });
}
