import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { STRIPE_DISPUTE_OUTCOMES, STRIPE_TRANSFER_STATUSES } from '#shared/constants.ts';
import { users } from './auth.ts';
import { claimColumns, createdAt, id, inList, timestamptz } from './columns.ts';
import { checkouts } from './payments.ts';
import { tutoringRequests } from './requests.ts';

// Stripe Connect's side of the payments (docs/decisions/0053): tutors' connected accounts, the transfers of released
// earnings to them, and chargebacks.

/**
 * A tutor's Stripe Connect Express account (docs/decisions/0053): made once, under the key `connect-account:<tutorId>`
 * kept here before Stripe is asked, so a repeated "Set up payouts" is the same account. What Stripe last told of it
 * (`account.updated`, or the tutor's return from onboarding) says whether the tutor's transfers may go, and is what
 * Earnings shows.
 */
export const stripeConnectedAccounts = pgTable('stripe_connected_accounts', {
  tutorId: uuid('tutor_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  // Null while the account is being made: the row and its key are written before Stripe is asked.
  accountId: text('account_id').unique('stripe_connected_accounts_account_id_key'),
  idempotencyKey: text('idempotency_key').notNull(),
  payoutsEnabled: boolean('payouts_enabled').notNull().default(false),
  chargesEnabled: boolean('charges_enabled').notNull().default(false),
  // What Stripe still needs from the tutor now (its `requirements.currently_due`).
  requirementsDue: text('requirements_due')
    .array()
    .notNull()
    .default(sql`'{}'`),
  // When Stripe last told the account's state (null: never yet, so it is asked before it is shown).
  stateReadAt: timestamptz('state_read_at'),
  createdAt: createdAt(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});
export type StripeConnectedAccount = typeof stripeConnectedAccounts.$inferSelect;

/**
 * A released job's transfer of the tutor's share to their connected account, one per job (`transfer:<requestId>`,
 * also the call's idempotency key, `:retry-<n>` added after an admin's n-th Retry). Written with the release; made by
 * claimed work once the tutor's payouts are enabled; the ledger's `transfer:<requestId>` posting (available → paid
 * out) is written with the change to transferred.
 */
export const stripeTransfers = pgTable(
  'stripe_transfers',
  {
    id: id(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => tutoringRequests.id)
      .unique('stripe_transfers_request_id_key'),
    tutorId: uuid('tutor_id')
      .notNull()
      .references(() => users.id),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    status: text('status', { enum: STRIPE_TRANSFER_STATUSES }).notNull().default('waiting'),
    stripeTransferId: text('stripe_transfer_id').unique('stripe_transfers_stripe_transfer_id_key'),
    // Calls to Stripe in this series of tries, and when the next may be made (backoff after a failure).
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at').notNull().defaultNow(),
    // Series of tries an admin started again (Retry): each calls under a key of its own.
    retries: integer('retries').notNull().default(0),
    // What Stripe (or the network) answered the last failed call, for the admins' list.
    lastError: text('last_error'),
    ...claimColumns(),
    createdAt: createdAt(),
    transferredAt: timestamptz('transferred_at'),
  },
  (t) => [
    check('stripe_transfers_amount_check', sql`${t.amountCents} > 0`),
    check('stripe_transfers_status_check', inList(t.status, STRIPE_TRANSFER_STATUSES)),
    check(
      'stripe_transfers_transferred_check',
      sql`(${t.status} = 'transferred') = (${t.stripeTransferId} is not null and ${t.transferredAt} is not null)`,
    ),
    index('stripe_transfers_waiting_idx')
      .on(t.tutorId, t.createdAt)
      .where(sql`${t.status} = 'waiting'`),
  ],
);
export type StripeTransfer = typeof stripeTransfers.$inferSelect;

/**
 * A chargeback opened at Stripe on a job's charge (`charge.dispute.created`): while it is open the job's money is
 * frozen (no release, no transfer) and it waits in the admins' disputes queue; `charge.dispute.closed` records how
 * it ended.
 */
export const stripeDisputes = pgTable(
  'stripe_disputes',
  {
    id: text('id').primaryKey(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => tutoringRequests.id),
    checkoutId: uuid('checkout_id')
      .notNull()
      .references(() => checkouts.id),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    // Stripe's reason (`fraudulent`, `product_not_received`, …) and status, as it last told them.
    reason: text('reason').notNull(),
    stripeStatus: text('stripe_status').notNull(),
    outcome: text('outcome', { enum: STRIPE_DISPUTE_OUTCOMES }),
    openedAt: timestamptz('opened_at').notNull().defaultNow(),
    closedAt: timestamptz('closed_at'),
  },
  (t) => [
    check('stripe_disputes_outcome_check', sql`${t.outcome} is null or ${inList(t.outcome, STRIPE_DISPUTE_OUTCOMES)}`),
    check('stripe_disputes_closed_check', sql`(${t.outcome} is null) = (${t.closedAt} is null)`),
    index('stripe_disputes_request_idx').on(t.requestId),
  ],
);
export type StripeDispute = typeof stripeDisputes.$inferSelect;
