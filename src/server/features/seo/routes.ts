import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { buildSitemap, robotsTxt } from './sitemap.ts';

// What search engines read first: robots.txt and sitemap.xml, built from PUBLIC_URL.

const tags = ['seo'];
/** Search engines come back daily at most: an hour's cache spares the database without hiding a new tutor long. */
const CACHE = 'public, max-age=3600';

export const seoRoutes: FastifyPluginAsyncZod<{ db: Database; publicUrl: string }> = async (app, { db, publicUrl }) => {
  app.get(
    '/robots.txt',
    {
      schema: {
        security: [],
        summary: 'robots.txt: the private areas disallowed, and the sitemap’s address',
        tags,
        response: { 200: { description: 'The robots.txt rules', content: { 'text/plain': { schema: z.string() } } } },
      },
    },
    async (_request, reply) =>
      reply.header('cache-control', CACHE).type('text/plain; charset=utf-8').send(robotsTxt(publicUrl)),
  );

  app.get(
    '/sitemap.xml',
    {
      schema: {
        security: [],
        summary: 'The sitemap: the public pages and the tutors visible to visitors, or the index of its pages',
        description: 'With `page`, that page of a sitemap too large for one; past the last: 404.',
        tags,
        querystring: z.object({ page: z.coerce.number().int().min(1).max(1_000_000).optional() }),
        response: {
          200: { description: 'A sitemap or a sitemap index', content: { 'application/xml': { schema: z.string() } } },
        },
      },
    },
    async (request, reply) => {
      const sitemap = await buildSitemap({ db, publicUrl, page: request.query.page });
      if (sitemap === null) throw new AppError('NOT_FOUND', { message: 'No such sitemap page' });
      return reply.header('cache-control', CACHE).type('application/xml; charset=utf-8').send(sitemap);
    },
  );
};
