import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import type { Moderation } from '../moderation/service.ts';
import type { AcceptPaidOffer, PaymentLister, RefundContext } from '../payments/service.ts';
import { adminAdjustmentsRoutes } from './routes/adjustments.ts';
import { adminAuditLogRoutes } from './routes/audit-log.ts';
import { adminAccountDeletionsRoutes } from './routes/account-deletions.ts';
import { adminContactMessagesRoutes } from './routes/contact-messages.ts';
import { adminDashboardRoutes } from './routes/dashboard.ts';
import { adminDisputesRoutes } from './routes/disputes.ts';
import { adminIllegalContentRoutes } from './routes/illegal-content.ts';
import { adminMeetingStatsRoutes } from './routes/meeting-stats.ts';
import { adminPatternsRoutes } from './routes/patterns.ts';
import { adminPaymentsRoutes } from './routes/payments.ts';
import { adminReportsRoutes } from './routes/reports.ts';
import { adminStripeTransfersRoutes } from './routes/stripe-transfers.ts';
import { adminSubAdminsRoutes } from './routes/sub-admins.ts';
import { adminUsersRoutes } from './routes/users.ts';

/**
 * The admin panel's API, one plugin per page. Every route starts with requireAdmin and the page's permission (or the
 * super-admin); every change writes its audit row in its own transaction. Answers are never cached: a decision
 * elsewhere changes them.
 */
export const adminRoutes: FastifyPluginAsyncZod<{
  db: Database;
  realtime: Realtime;
  moderation: Moderation;
  refunds: RefundContext;
  paymentLister: PaymentLister | null;
  acceptPaidOffer: AcceptPaidOffer;
  /** Not PAYMENTS_PROVIDER=none: the dashboard shows the money counters. */
  takesPayments: boolean;
  /** Has a retried Stripe transfer made now rather than at the work's next pass. */
  wakeStripeTransfers: () => void;
}> = async (
  app,
  { db, realtime, moderation, refunds, paymentLister, acceptPaidOffer, takesPayments, wakeStripeTransfers },
) => {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  await app.register(adminDashboardRoutes, { db, takesPayments });
  await app.register(adminReportsRoutes, { db });
  await app.register(adminIllegalContentRoutes, { db });
  await app.register(adminMeetingStatsRoutes, { db });
  await app.register(adminSubAdminsRoutes, { db });
  await app.register(adminUsersRoutes, { db, realtime });
  await app.register(adminPatternsRoutes, { db, moderation });
  await app.register(adminContactMessagesRoutes, { db });
  await app.register(adminAccountDeletionsRoutes, { db });
  await app.register(adminAuditLogRoutes, { db });
  await app.register(adminPaymentsRoutes, {
    db,
    publicUrl: refunds.publicUrl,
    operator: refunds.operator,
    paymentLister,
    acceptPaidOffer,
  });
  await app.register(adminDisputesRoutes, { db, refunds });
  await app.register(adminAdjustmentsRoutes, { db, refunds });
  await app.register(adminStripeTransfersRoutes, { db, onRetried: wakeStripeTransfers });
};
