import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { ApiErrorBody } from '#shared/errors.ts';
import { prerenderedPageFile } from '#shared/prerendered-pages.ts';

/** The prerendered public pages the build wrote (paths relative to the web directory, with / separators). */
function listPrerenderedPages(webDir: string) {
  const directory = path.join(webDir, prerenderedPageFile('/'), '..');
  if (!existsSync(directory)) return new Set<string>();
  const files = readdirSync(directory, { recursive: true, encoding: 'utf8' });
  return new Set(files.map((file) => path.posix.join(path.basename(directory), file.split(path.sep).join('/'))));
}

/**
 * Serves the built web app: hashed assets cached for a year; a public page prerendered at build time as its
 * HTML (only without a query string, which the page may read); every other page path answered with index.html.
 * Both carry the same CSP (set for every answer).
 */
export async function registerSpa(app: FastifyInstance, webDir: string) {
  const hasBuild = existsSync(path.join(webDir, 'index.html'));
  const prerenderedPages = listPrerenderedPages(webDir);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each text asset (vite.config.ts): the best one accepted is sent.
      preCompressed: true,
      setHeaders(reply, filePath) {
        reply.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !request.url.startsWith('/api/') &&
      !request.url.startsWith('/socket.io/');
    const [pagePath = '', query] = request.url.split('?');
    if (isPage && hasBuild && !path.extname(pagePath)) {
      const prerendered = query === undefined ? prerenderedPageFile(pagePath) : undefined;
      const file = prerendered && prerenderedPages.has(prerendered) ? prerendered : 'index.html';
      return reply.header('cache-control', 'no-cache').type('text/html').sendFile(file);
    }
    return reply.status(404).send({ code: 'NOT_FOUND', message: 'Not found' } satisfies ApiErrorBody);
  });
}
