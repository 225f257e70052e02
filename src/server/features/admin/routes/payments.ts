import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ledgerSearchAnswerSchema,
  ledgerSearchQuerySchema,
  reconciliationAnswerSchema,
} from '#shared/schemas/admin-payments.ts';
import type { Database } from '../../../db/client.ts';
import {
  comparePayments,
  LEDGER_SEARCH_LIMIT,
  ledgerCsv,
  searchLedger,
  type PaymentLister,
} from '../../payments/service.ts';
import { requireAdmin } from '../service.ts';
import { tags } from './params.ts';

/** The Payments section: the ledger searched by job or user, its CSV, and the reconciliation with the provider. */
export const adminPaymentsRoutes: FastifyPluginAsyncZod<{ db: Database; paymentLister: PaymentLister | null }> = async (
  app,
  { db, paymentLister },
) => {
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

  app.get(
    '/api/admin/payments/reconciliation',
    {
      schema: {
        summary: 'The provider’s payments of the last 30 days against the ledger’s',
        description:
          'Compared now: payments the provider holds that the ledger lacks, and the reverse, and amounts that differ. The report is null when the provider keeps no records to compare (manual, none). Needs payments.',
        tags,
        response: { 200: reconciliationAnswerSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'payments');
      if (!paymentLister) return { report: null };
      return { report: (await comparePayments({ db, lister: paymentLister })).report };
    },
  );
};
