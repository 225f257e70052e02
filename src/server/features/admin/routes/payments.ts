import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  awaitingTransfersSchema,
  ledgerSearchAnswerSchema,
  ledgerSearchQuerySchema,
  reconciliationAnswerSchema,
  recordTransferSchema,
  requestedPayoutsSchema,
} from '#shared/schemas/admin-payments.ts';
import type { Operator } from '#shared/schemas/payments.ts';
import type { Database } from '../../../db/client.ts';
import {
  comparePayments,
  LEDGER_SEARCH_LIMIT,
  ledgerCsv,
  listAwaitingTransfers,
  listRequestedPayouts,
  recordPayoutPaid,
  recordTransfer,
  searchLedger,
  type AcceptPaidOffer,
  type PaymentLister,
} from '../../payments/service.ts';
import { noContentAnswer } from '../../../http/openapi.ts';
import { recordAdminAction } from '../audit.ts';
import { requireAdmin } from '../service.ts';
import { idParams, tags } from './params.ts';

/**
 * The Payments section: the ledger searched by job or user, its CSV, the reconciliation with the provider, and the
 * bank transfers admins record under `manual`.
 */
export const adminPaymentsRoutes: FastifyPluginAsyncZod<{
  db: Database;
  /** For the link and the foot of the payout receipt a recorded transfer sends. */
  publicUrl: string;
  operator: Operator;
  paymentLister: PaymentLister | null;
  acceptPaidOffer: AcceptPaidOffer;
}> = async (app, { db, publicUrl, operator, paymentLister, acceptPaidOffer }) => {
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

  app.get(
    '/api/admin/payments/transfers',
    {
      schema: {
        summary: 'Bank-transfer checkouts awaiting the student’s transfer, oldest first',
        description: 'Checkouts under `manual` still within their hold. Needs payments.',
        tags,
        response: { 200: awaitingTransfersSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'payments');
      return listAwaitingTransfers(db);
    },
  );

  app.post(
    '/api/admin/payments/transfers/:id/paid',
    {
      schema: {
        summary: 'Record a bank transfer: the checkout is paid and the offer accepted, as a card payment does',
        description:
          'The note is the transfer’s reference. Audited in the same transaction. Unknown or not a bank-transfer checkout: 404; paid, cancelled or past its hold: 409. Needs payments.',
        tags,
        params: idParams,
        body: recordTransferSchema,
        response: { 204: noContentAnswer },
      },
    },
    async (request, reply) => {
      const { user } = await requireAdmin(request, db, 'payments');
      const reference = request.body.note;
      await recordTransfer({
        db,
        checkoutId: request.params.id,
        reference,
        acceptPaidOffer,
        alsoWrite: (tx, checkout) =>
          recordAdminAction(tx, {
            actor: user,
            action: 'payments.transfer_recorded',
            objectType: 'checkout',
            objectId: checkout.id,
            before: { status: checkout.status },
            after: { status: 'paid', amountCents: checkout.amountCents, reference },
          }),
      });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/admin/payments/payouts',
    {
      schema: {
        summary: 'Payouts tutors requested under `manual`, waiting for the bank transfer, oldest first',
        description: 'Needs payments.',
        tags,
        response: { 200: requestedPayoutsSchema },
      },
    },
    async (request) => {
      await requireAdmin(request, db, 'payments');
      return listRequestedPayouts(db);
    },
  );

  app.post(
    '/api/admin/payments/payouts/:id/paid',
    {
      schema: {
        summary: 'Record a requested payout as paid: the bank transfer to the tutor was sent',
        description:
          'The note is the transfer’s reference. The ledger posts the payout; audited in the same transaction. Unknown payout: 404; paid already: 409. Needs payments.',
        tags,
        params: idParams,
        body: recordTransferSchema,
        response: { 204: noContentAnswer },
      },
    },
    async (request, reply) => {
      const { user } = await requireAdmin(request, db, 'payments');
      const reference = request.body.note;
      await db.transaction(async (tx) => {
        const payout = await recordPayoutPaid({
          db: tx,
          publicUrl,
          operator,
          payoutId: request.params.id,
          adminId: user.id,
          reference,
        });
        await recordAdminAction(tx, {
          actor: user,
          action: 'payments.payout_recorded',
          objectType: 'payout',
          objectId: payout.id,
          before: { status: 'requested' },
          after: { status: 'paid', amountCents: payout.amountCents, reference },
        });
      });
      return reply.status(204).send(null);
    },
  );
};
