import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  contactMessageSchema,
  contactMessagesPageSchema,
  contactMessagesQuerySchema,
  markHandledSchema,
} from '#shared/schemas/admin.ts';
import type { Database } from '../../../db/client.ts';
import { listContactMessages, markContactMessage } from '../contact-messages.ts';
import { requireAdmin } from '../service.ts';
import { idParams, tags } from './params.ts';

/** Contact-form messages. */
export const adminContactMessagesRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/admin/contact-messages',
    {
      schema: {
        summary: 'Contact-form messages, newest first',
        description: 'Filter open or handled, order by Created At, page with the cursor. Needs messages.',
        tags,
        querystring: contactMessagesQuerySchema,
        response: { 200: contactMessagesPageSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'messages');
      return listContactMessages({ db, ...request.query });
    },
  );

  app.post(
    '/api/admin/contact-messages/:id/handled',
    {
      schema: {
        summary: 'Mark a contact message handled, or open again',
        description: 'Who and when are kept. Unknown message: 404. Needs messages.',
        tags,
        params: idParams,
        body: markHandledSchema,
        response: { 200: contactMessageSchema },
      },
    },
    async (request) => {
      const { user } = await requireAdmin(request, db, 'messages');
      return markContactMessage({ db, actor: user, messageId: request.params.id, handled: request.body.handled });
    },
  );
};
