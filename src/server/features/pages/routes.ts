import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contactMessageSchema } from '#shared/schemas/contact.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { createContactMessage } from './service.ts';

export const pagesRoutes: FastifyPluginAsyncZod<{ db: Database; config: Config }> = async (app, { db, config }) => {
  app.get(
    '/api/settings/public',
    {
      schema: {
        security: [],
        summary: 'Contact details and settings the web app shows',
        tags: ['pages'],
        response: {
          200: z.object({
            supportPhone: z.string(),
            supportEmail: z.string(),
            whatsappNumber: z.string(),
            jitsiDomain: z.string(),
            payments: z.boolean(),
            releaseAfterDays: z.int(),
            commissionPercent: z.number(),
          }),
        },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return config.publicSettings;
    },
  );

  app.post(
    '/api/contact',
    {
      config: { rateLimit: { max: 5, timeWindow: '1 minute' } },
      schema: {
        security: [],
        summary: 'Send a message to support',
        tags: ['pages'],
        body: contactMessageSchema,
        response: { 201: z.object({ id: z.uuid() }) },
      },
    },
    async (request, reply) => {
      const created = await createContactMessage({ db, input: request.body });
      return reply.status(201).send(created);
    },
  );
};
