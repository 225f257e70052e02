import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  pgSequence,
  pgTable,
  smallint,
  text,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  CHECKOUT_PROVIDERS,
  CHECKOUT_STATUSES,
  LEDGER_ACCOUNT_KINDS,
  LEDGER_JOB_ACCOUNT_KINDS,
  LEDGER_TRANSACTION_KINDS,
  LEDGER_USER_ACCOUNT_KINDS,
  OPEN_REFUND_REQUEST_STATUSES,
  PAYOUT_STATUSES,
  REFUND_REASONS,
  REFUND_REQUEST_STATUSES,
} from '#shared/constants.ts';
import { PAYMENT_ADJUSTMENT_STATUSES, PAYMENT_ADJUSTMENT_TUTOR_OUTCOMES } from '#shared/schemas/admin-payments.ts';
import { users } from './auth.ts';
import { claimColumns, createdAt, id, inList, timestamptz } from './columns.ts';
import { meetings } from './meetings.ts';
import { tutorBids, tutoringRequests } from './requests.ts';

// The double-entry ledger (docs/decisions/0039). Money history is kept: a user or request with ledger rows cannot
// be deleted (the foreign keys restrict), and the migration's triggers refuse updates and deletes of the ledger.

/** An account: a kind and at most one owner, a user or a job (its request). */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: id(),
    kind: text('kind', { enum: LEDGER_ACCOUNT_KINDS }).notNull(),
    ownerUserId: uuid('owner_user_id').references(() => users.id),
    ownerRequestId: uuid('owner_request_id').references(() => tutoringRequests.id),
    createdAt: createdAt(),
  },
  (t) => [
    check('ledger_accounts_kind_check', inList(t.kind, LEDGER_ACCOUNT_KINDS)),
    // Each kind has the owner it names, and no other.
    check(
      'ledger_accounts_owner_check',
      sql`(${t.ownerUserId} is not null) = (${inList(t.kind, LEDGER_USER_ACCOUNT_KINDS)})
        and (${t.ownerRequestId} is not null) = (${inList(t.kind, LEDGER_JOB_ACCOUNT_KINDS)})`,
    ),
    // One account of a kind per owner (and one of each platform account): owners without one compare equal.
    unique('ledger_accounts_kind_owner_key').on(t.kind, t.ownerUserId, t.ownerRequestId).nullsNotDistinct(),
  ],
);

/** One money event: its entries sum to zero, and its idempotency key is never posted twice. */
export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: id(),
    idempotencyKey: text('idempotency_key').notNull().unique('ledger_transactions_idempotency_key_key'),
    kind: text('kind', { enum: LEDGER_TRANSACTION_KINDS }).notNull(),
    // The job the event belongs to, when it belongs to one.
    requestId: uuid('request_id').references(() => tutoringRequests.id),
    createdAt: createdAt(),
  },
  (t) => [
    check('ledger_transactions_kind_check', inList(t.kind, LEDGER_TRANSACTION_KINDS)),
    index('ledger_transactions_request_idx').on(t.requestId),
  ],
);

/** A signed amount in USD cents on one account: what comes in is positive, what goes out negative. */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: id(),
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => ledgerTransactions.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    // The entry's place in its transaction (1, 2, …), so a posting reads back as it was written.
    line: smallint('line').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  },
  (t) => [
    check('ledger_entries_amount_check', sql`${t.amountCents} <> 0`),
    unique('ledger_entries_transaction_line_key').on(t.transactionId, t.line),
    // A balance is a sum over one account's entries, read from the index alone.
    index('ledger_entries_account_amount_idx').on(t.accountId, t.amountCents),
  ],
);

export type LedgerAccount = typeof ledgerAccounts.$inferSelect;
export type LedgerTransaction = typeof ledgerTransactions.$inferSelect;
export type LedgerEntry = typeof ledgerEntries.$inferSelect;

/**
 * Accepting an offer under a paying provider: the student pays the bid's cents (read on the server), and only the
 * paid checkout accepts the offer. One awaiting or paid checkout per request, so of racing accepts one holds it.
 */
/** Receipt numbers, one per paid checkout in the order of payment (a rolled-back payment may leave a gap). */
export const receiptNumbers = pgSequence('receipt_numbers');
/** The next receipt number, for the statement that marks a checkout paid. */
export const nextReceiptNumber = () => sql<number>`nextval('receipt_numbers')`;

export const checkouts = pgTable(
  'checkouts',
  {
    id: id(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => tutoringRequests.id, { onDelete: 'cascade' }),
    bidId: uuid('bid_id')
      .notNull()
      .references(() => tutorBids.id, { onDelete: 'cascade' }),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tutorId: uuid('tutor_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amountCents: integer('amount_cents').notNull(),
    provider: text('provider', { enum: CHECKOUT_PROVIDERS }).notNull(),
    status: text('status', { enum: CHECKOUT_STATUSES }).notNull().default('awaiting_payment'),
    // The provider's id of the confirmed payment.
    providerPaymentId: text('provider_payment_id'),
    // Under `stripe`: the PaymentIntent the student's browser confirms, made under the key `payment:<id>`.
    stripePaymentIntentId: text('stripe_payment_intent_id').unique('checkouts_stripe_payment_intent_id_key'),
    // Under `stripe`: an assignment's deadline, set as its payment starts; the offer is accepted with it, whichever
    // records the payment (the student's page or the webhook).
    deadline: timestamptz('deadline'),
    // The card's last four digits, when the provider tells them (its receipt names the card by them).
    cardLast4: text('card_last4'),
    // The payment's receipt number, from receipt_numbers when it is paid.
    receiptNumber: bigint('receipt_number', { mode: 'number' }).unique('checkouts_receipt_number_key'),
    // Held while the provider is called for this checkout, so two pays charge once.
    ...claimColumns(),
    expiresAt: timestamptz('expires_at').notNull(),
    paidAt: timestamptz('paid_at'),
    createdAt: createdAt(),
  },
  (t) => [
    check('checkouts_amount_check', sql`${t.amountCents} > 0`),
    check('checkouts_provider_check', inList(t.provider, CHECKOUT_PROVIDERS)),
    check('checkouts_status_check', inList(t.status, CHECKOUT_STATUSES)),
    check('checkouts_paid_check', sql`(${t.status} = 'paid') = (${t.paidAt} is not null)`),
    check('checkouts_receipt_number_check', sql`(${t.status} = 'paid') = (${t.receiptNumber} is not null)`),
    check('checkouts_card_last4_check', sql`${t.cardLast4} ~ '^[0-9]{4}$'`),
    uniqueIndex('checkouts_one_live_per_request_key')
      .on(t.requestId)
      .where(sql`${t.status} in ('awaiting_payment', 'paid')`),
    // The student's payments, newest first.
    index('checkouts_student_created_idx').on(t.studentId, t.createdAt.desc().nullsFirst()),
    // The lapse job: awaiting checkouts past their hold.
    index('checkouts_awaiting_expires_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} = 'awaiting_payment'`),
  ],
);

export type Checkout = typeof checkouts.$inferSelect;

/**
 * Money held for a job going back to the student (docs/decisions/0044): a student's refund request for a missed
 * session or deadline, a tutor's withdrawal, or a cancellation both agree to. Decided, it is `refunding` until the
 * provider confirms the refund (claimed for that call), then the ledger is posted under `refund:<id>`.
 */
export const refundRequests = pgTable(
  'refund_requests',
  {
    id: id(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => tutoringRequests.id),
    checkoutId: uuid('checkout_id')
      .notNull()
      .references(() => checkouts.id),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id),
    tutorId: uuid('tutor_id')
      .notNull()
      .references(() => users.id),
    reason: text('reason', { enum: REFUND_REASONS }).notNull(),
    // Who asked: the student, or the tutor or student who proposed or made a cancellation; null when the platform
    // opened it (a suspended tutor's job).
    openedBy: uuid('opened_by').references(() => users.id),
    // The missed session, for a missed-session request.
    meetingId: uuid('meeting_id').references(() => meetings.id),
    status: text('status', { enum: REFUND_REQUEST_STATUSES }).notNull(),
    // The job's cents when asked: a full refund returns them all.
    heldCents: integer('held_cents').notNull(),
    // Set once decided: what goes back to the student (the rest is released to the tutor).
    refundCents: integer('refund_cents'),
    // The tutor's answer to a student's request by this time, or the request goes to admins.
    answerDueAt: timestamptz('answer_due_at'),
    tutorAnswer: text('tutor_answer', { enum: ['accepted', 'contested'] }),
    tutorNote: text('tutor_note'),
    answeredAt: timestamptz('answered_at'),
    decidedBy: uuid('decided_by').references(() => users.id),
    decisionNote: text('decision_note'),
    decidedAt: timestamptz('decided_at'),
    // The provider's id of the refund, once it confirmed it.
    providerRefundId: text('provider_refund_id'),
    ...claimColumns(),
    refundedAt: timestamptz('refunded_at'),
    createdAt: createdAt(),
  },
  (t) => [
    check('refund_requests_reason_check', inList(t.reason, REFUND_REASONS)),
    check('refund_requests_status_check', inList(t.status, REFUND_REQUEST_STATUSES)),
    check(
      'refund_requests_tutor_answer_check',
      sql`${t.tutorAnswer} is null or ${t.tutorAnswer} in ('accepted', 'contested')`,
    ),
    check('refund_requests_held_check', sql`${t.heldCents} > 0`),
    check(
      'refund_requests_refund_check',
      sql`${t.refundCents} is null or (${t.refundCents} >= 0 and ${t.refundCents} <= ${t.heldCents})`,
    ),
    check('refund_requests_meeting_check', sql`(${t.reason} = 'missed_session') = (${t.meetingId} is not null)`),
    // At most one open request per job: its money is frozen while it is open.
    uniqueIndex('refund_requests_one_open_per_job_key')
      .on(t.requestId)
      .where(sql`${inList(t.status, OPEN_REFUND_REQUEST_STATUSES)}`),
    index('refund_requests_request_idx').on(t.requestId, t.createdAt.desc().nullsFirst()),
    // The admins' queue, and the job that sends unanswered requests to it.
    index('refund_requests_status_idx').on(t.status, t.createdAt),
  ],
);

export type RefundRequest = typeof refundRequests.$inferSelect;

/**
 * An admin's adjustment of a job whose money was released: part or all of it goes back to the student, refunded by
 * the provider under `adjustment:<id>` and posted under the same key, the tutor's part from their earnings and the
 * platform's commission on those cents from its commission. Under Stripe a transfer already made is then reversed
 * (`reversal:<id>`) for the tutor's part; where Stripe refuses, the tutor owes it on their balance.
 */
export const paymentAdjustments = pgTable(
  'payment_adjustments',
  {
    id: id(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => tutoringRequests.id),
    checkoutId: uuid('checkout_id')
      .notNull()
      .references(() => checkouts.id),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id),
    tutorId: uuid('tutor_id')
      .notNull()
      .references(() => users.id),
    adminId: uuid('admin_id')
      .notNull()
      .references(() => users.id),
    note: text('note').notNull(),
    // What goes back to the student, split as the release split it: the tutor's part and the commission's.
    amountCents: integer('amount_cents').notNull(),
    tutorCents: integer('tutor_cents').notNull(),
    commissionCents: integer('commission_cents').notNull(),
    status: text('status', { enum: PAYMENT_ADJUSTMENT_STATUSES }).notNull().default('refunding'),
    providerRefundId: text('provider_refund_id'),
    // Under Stripe: the tutor's transfer being reversed, and the reversal once made.
    stripeTransferId: text('stripe_transfer_id'),
    stripeReversalId: text('stripe_reversal_id'),
    tutorOutcome: text('tutor_outcome', { enum: PAYMENT_ADJUSTMENT_TUTOR_OUTCOMES }),
    // What the provider (or the network) answered the last failed call.
    lastError: text('last_error'),
    ...claimColumns(),
    createdAt: createdAt(),
    settledAt: timestamptz('settled_at'),
  },
  (t) => [
    check('payment_adjustments_status_check', inList(t.status, PAYMENT_ADJUSTMENT_STATUSES)),
    check(
      'payment_adjustments_tutor_outcome_check',
      sql`${t.tutorOutcome} is null or ${inList(t.tutorOutcome, PAYMENT_ADJUSTMENT_TUTOR_OUTCOMES)}`,
    ),
    check(
      'payment_adjustments_split_check',
      sql`${t.amountCents} > 0 and ${t.tutorCents} >= 0 and ${t.commissionCents} >= 0 and ${t.amountCents} = ${t.tutorCents} + ${t.commissionCents}`,
    ),
    // One per job, but a failed one (the provider refused its refund, or never answered it in all its claims) may be
    // made again: a refund Stripe made for it after all is looked up first (adjustments.ts).
    uniqueIndex('payment_adjustments_one_per_job_key')
      .on(t.requestId)
      .where(sql`${t.status} <> 'failed'`),
    index('payment_adjustments_due_idx')
      .on(t.createdAt)
      .where(sql`${t.status} in ('refunding', 'reversing')`),
  ],
);

export type PaymentAdjustment = typeof paymentAdjustments.$inferSelect;

/**
 * A tutor's payout of their whole available balance. Requested under the tutor's idempotency key, paid by the
 * provider's call outside any transaction (claim-then-call) or, under `manual`, recorded by an admin; the ledger's
 * `payout:<id>` posting is written with the change to paid. One requested payout per tutor at a time.
 */
export const payouts = pgTable(
  'payouts',
  {
    id: id(),
    // Restrict: money history outlives nothing it belongs to.
    tutorId: uuid('tutor_id')
      .notNull()
      .references(() => users.id),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    provider: text('provider', { enum: CHECKOUT_PROVIDERS }).notNull(),
    status: text('status', { enum: PAYOUT_STATUSES }).notNull().default('requested'),
    // The Idempotency-Key of the tutor's request: the same key answers with this payout.
    idempotencyKey: uuid('idempotency_key').notNull(),
    // The provider's id of the payout, or the admin's reference for a bank transfer under `manual`.
    providerPayoutId: text('provider_payout_id'),
    recordedBy: uuid('recorded_by').references(() => users.id),
    ...claimColumns(),
    createdAt: createdAt(),
    paidAt: timestamptz('paid_at'),
  },
  (t) => [
    check('payouts_amount_check', sql`${t.amountCents} > 0`),
    check('payouts_provider_check', inList(t.provider, CHECKOUT_PROVIDERS)),
    check('payouts_status_check', inList(t.status, PAYOUT_STATUSES)),
    check('payouts_paid_check', sql`(${t.status} = 'paid') = (${t.paidAt} is not null)`),
    unique('payouts_tutor_idempotency_key').on(t.tutorId, t.idempotencyKey),
    uniqueIndex('payouts_one_requested_per_tutor_key')
      .on(t.tutorId)
      .where(sql`${t.status} = 'requested'`),
    index('payouts_tutor_created_idx').on(t.tutorId, t.createdAt.desc().nullsFirst()),
  ],
);

export type PayoutRow = typeof payouts.$inferSelect;

/**
 * The `test` provider's own books: each charge it confirmed, written by the provider when it confirms, in a statement
 * of its own, as a real provider's records exist whatever becomes of the app's transaction afterwards. The
 * reconciliation compares them with the ledger (docs/decisions/0043).
 */
export const testProviderPayments = pgTable(
  'test_provider_payments',
  {
    providerPaymentId: text('provider_payment_id').primaryKey(),
    // The key the charge was made under (`payment:<checkoutId>`): a repeated charge is the same payment.
    idempotencyKey: text('idempotency_key').notNull().unique('test_provider_payments_idempotency_key_key'),
    amountCents: integer('amount_cents').notNull(),
    feeCents: integer('fee_cents').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('test_provider_payments_created_idx').on(t.createdAt)],
);

/**
 * The events Stripe sent to the webhook, each kept once by its id (Stripe may send one again, and in any order), and
 * processed by claimed work after the webhook has answered.
 */
export const stripeEvents = pgTable(
  'stripe_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    // The object the event is about (a PaymentIntent's id for `payment_intent.*`), as Stripe sent it.
    objectId: text('object_id').notNull(),
    receivedAt: timestamptz('received_at').notNull().defaultNow(),
    processedAt: timestamptz('processed_at'),
    ...claimColumns(),
  },
  (t) => [
    index('stripe_events_unprocessed_idx')
      .on(t.receivedAt)
      .where(sql`${t.processedAt} is null`),
  ],
);
export type StripeEvent = typeof stripeEvents.$inferSelect;
