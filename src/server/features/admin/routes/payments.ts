import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ledgerSearchAnswerSchema, ledgerSearchQuerySchema } from '#shared/schemas/admin-payments.ts';
import type { Database } from '../../../db/client.ts';
import { LEDGER_SEARCH_LIMIT, ledgerCsv, searchLedger } from '../../payments/service.ts';
import { requireAdmin } from '../service.ts';
import { tags } from './params.ts';

/** The Payments section: the ledger searched by job or user, and its CSV. */
export const adminPaymentsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/admin/payments/ledger',
    {
      schema: {
        summary: 'The ledger of a job or a user: balances, and transactions with their entries',
        description: `Search by a job's request id, a VH number (every user who has it) or an e-mail address; the newest ${LEDGER_SEARCH_LIMIT} transactions. Not a job id, VH number or e-mail: 400; nobody found: 404. Needs payments.`,
        tags,
        querystring: ledgerSearchQuerySchema,
        response: { 200: ledgerSearchAnswerSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'payments');
      return searchLedger({ db, q: request.query.q, limit: LEDGER_SEARCH_LIMIT });
    },
  );

  app.get(
    '/api/admin/payments/ledger.csv',
    {
      schema: {
        summary: 'The same search as CSV, every transaction, one line per entry',
        description: 'Answers as the search does (400, 404). Needs payments.',
        tags,
        querystring: ledgerSearchQuerySchema,
        response: { 200: z.string() },
      },
    },
    async (request, reply) => {
      await requireAdmin(request, db, 'payments');
      const csv = ledgerCsv(await searchLedger({ db, q: request.query.q }));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="ledger.csv"')
        .send(csv);
    },
  );
};
