import { z } from 'zod';
import { CHECKOUT_PROVIDERS, LEDGER_ACCOUNT_KINDS, LEDGER_TRANSACTION_KINDS } from '#shared/constants.ts';
import { requiredText } from './text-fields.ts';

// The admin Payments section: the ledger searched by job or user, its CSV, and the money counters.

export const adminPaymentsMessages = {
  searchInvalid: 'Enter a job id, a VH number (3 digits) or an e-mail address.',
  searchNotFound: 'No job or user matches this search.',
  ledgerFailed: 'Failed to fetch the ledger',
  reconciliationFailed: 'Failed to fetch the reconciliation',
} as const;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const VH_PATTERN = /^[0-9]{3}$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

/** What a ledger search names: a job by its request id, users by VH number, or a user by e-mail address. */
export type LedgerSearchTarget =
  { kind: 'job'; requestId: string } | { kind: 'vh'; vhNumber: number } | { kind: 'email'; email: string };

/** The target a typed search names, or null when it is none of a job id, a VH number and an e-mail address. */
export function ledgerSearchTarget(typed: string): LedgerSearchTarget | null {
  const q = typed.trim();
  if (UUID_PATTERN.test(q)) return { kind: 'job', requestId: q.toLowerCase() };
  if (VH_PATTERN.test(q)) return { kind: 'vh', vhNumber: Number(q) };
  if (EMAIL_PATTERN.test(q) && q.length <= 254) return { kind: 'email', email: q.toLowerCase() };
  return null;
}

export const ledgerSearchQuerySchema = z.object({
  q: z
    .string({ error: adminPaymentsMessages.searchInvalid })
    .trim()
    .refine((q) => ledgerSearchTarget(q) !== null, adminPaymentsMessages.searchInvalid),
});
export type LedgerSearchQuery = z.infer<typeof ledgerSearchQuerySchema>;

const isoDate = z.iso.datetime({ offset: true });

/** An account as the admin reads it: its kind and whose it is (a user, a job, or the platform's own). */
const ledgerAccountSchema = z.object({
  id: z.uuid(),
  kind: z.enum(LEDGER_ACCOUNT_KINDS),
  owner: z.discriminatedUnion('type', [
    z.object({ type: z.literal('user'), id: z.uuid(), username: z.string(), vhNumber: z.number().int() }),
    z.object({ type: z.literal('job'), id: z.uuid(), title: z.string() }),
    z.object({ type: z.literal('platform') }),
  ]),
});
export type AdminLedgerAccount = z.infer<typeof ledgerAccountSchema>;

const ledgerTransactionSchema = z.object({
  id: z.uuid(),
  kind: z.enum(LEDGER_TRANSACTION_KINDS),
  idempotencyKey: z.string(),
  requestId: z.uuid().nullable(),
  createdAt: isoDate,
  entries: z.array(z.object({ account: ledgerAccountSchema, amountCents: z.number().int() })),
});
export type AdminLedgerTransaction = z.infer<typeof ledgerTransactionSchema>;

export const ledgerSearchAnswerSchema = z.object({
  /** The job or users found. */
  subject: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('job'), requestId: z.uuid(), title: z.string() }),
    z.object({
      kind: z.literal('users'),
      users: z.array(z.object({ id: z.uuid(), username: z.string(), vhNumber: z.number().int(), email: z.string() })),
    }),
  ]),
  /** The subject's accounts with their balances (sums of their entries). */
  balances: z.array(z.object({ account: ledgerAccountSchema, balanceCents: z.number().int() })),
  /** The transactions touching them, newest first, at most LEDGER_SEARCH_LIMIT. */
  transactions: z.array(ledgerTransactionSchema),
  /** True when there are more transactions than shown (the CSV has them all). */
  truncated: z.boolean(),
});
export type LedgerSearchAnswer = z.infer<typeof ledgerSearchAnswerSchema>;

/** The money counters of the dashboard, for admins with the payments permission. */
export const paymentTotalsSchema = z.object({
  /** The platform's commission account: commissions on released money less the providers' fees. */
  revenueCents: z.number().int(),
  /** The money held for jobs, not yet released or refunded. */
  heldCents: z.number().int(),
});
export type PaymentTotals = z.infer<typeof paymentTotalsSchema>;

/** How the provider's payments and the ledger's can differ. */
export const PAYMENT_MISMATCH_KINDS = ['missing_in_ledger', 'missing_at_provider', 'amount_differs'] as const;

const paymentMismatchSchema = z.object({
  kind: z.enum(PAYMENT_MISMATCH_KINDS),
  checkoutId: z.uuid().nullable(),
  /** The job, when the checkout is known. */
  requestId: z.uuid().nullable(),
  providerPaymentId: z.string().nullable(),
  providerCents: z.number().int().nullable(),
  ledgerCents: z.number().int().nullable(),
  /** When the provider took the payment, or the ledger recorded it. */
  at: isoDate,
});
export type PaymentMismatch = z.infer<typeof paymentMismatchSchema>;

/** The provider's payments against the ledger's, over the last 30 days. */
export const reconciliationReportSchema = z.object({
  provider: z.enum(CHECKOUT_PROVIDERS),
  checkedAt: isoDate,
  since: isoDate,
  providerPayments: z.number().int(),
  ledgerPayments: z.number().int(),
  /** Provider payments whose ledger record the reconciliation job is about to write. */
  awaitingRecord: z.number().int(),
  mismatches: z.array(paymentMismatchSchema),
});
export type ReconciliationReport = z.infer<typeof reconciliationReportSchema>;

/** The reconciliation as the admin panel reads it: null when the provider keeps no records to compare. */
export const reconciliationAnswerSchema = z.object({ report: reconciliationReportSchema.nullable() });
export type ReconciliationAnswer = z.infer<typeof reconciliationAnswerSchema>;

// Bank transfers (`manual`): checkouts awaiting the transfer an admin records.

const partySchema = z.object({ id: z.uuid(), username: z.string(), vhNumber: z.number().int() });

export const awaitingTransferSchema = z.object({
  checkoutId: z.uuid(),
  requestId: z.uuid(),
  job: z.string(),
  student: partySchema,
  tutor: partySchema,
  amountCents: z.number().int(),
  createdAt: isoDate,
  /** When the hold ends and the offer is open again. */
  expiresAt: isoDate,
});
export type AwaitingTransfer = z.infer<typeof awaitingTransferSchema>;
export const awaitingTransfersSchema = z.object({ items: z.array(awaitingTransferSchema) });
export type AwaitingTransfers = z.infer<typeof awaitingTransfersSchema>;

export const transferMessages = {
  noteRequired: 'Enter the transfer’s reference from the bank statement.',
  noteTooLong: 'The reference can be at most 200 characters.',
  notAwaiting: 'This checkout is no longer awaiting payment: it was paid, cancelled, or its hold ended.',
} as const;

/** The admin's record of a bank transfer: its reference, as the bank statement shows it. */
export const recordTransferSchema = z.object({
  note: requiredText(transferMessages.noteRequired, 200, transferMessages.noteTooLong),
});
export type RecordTransferInput = z.infer<typeof recordTransferSchema>;

/** A tutor's payout requested under `manual`: the admin sends the bank transfer and records it. */
export const requestedPayoutSchema = z.object({
  payoutId: z.uuid(),
  tutor: partySchema,
  amountCents: z.number().int(),
  requestedAt: isoDate,
});
export type RequestedPayout = z.infer<typeof requestedPayoutSchema>;
export const requestedPayoutsSchema = z.object({ items: z.array(requestedPayoutSchema) });
export type RequestedPayouts = z.infer<typeof requestedPayoutsSchema>;

// Stripe transfers (`stripe`): a released share Stripe refused or that failed every try, waiting for an admin.

export const failedStripeTransferSchema = z.object({
  id: z.uuid(),
  requestId: z.uuid(),
  job: z.string(),
  tutor: partySchema,
  amountCents: z.number().int(),
  /** Tries in its last series. */
  attempts: z.number().int(),
  /** What Stripe (or the network) answered the last try. */
  lastError: z.string().nullable(),
  createdAt: isoDate,
});
export type FailedStripeTransfer = z.infer<typeof failedStripeTransferSchema>;
export const failedStripeTransfersSchema = z.object({ items: z.array(failedStripeTransferSchema) });
export type FailedStripeTransfers = z.infer<typeof failedStripeTransfersSchema>;
export const stripeTransferRetryMessages = {
  notFailed: 'This transfer has not failed: it was sent, cancelled, or is being tried again already.',
} as const;

// Adjustments: money of a released job given back to the student by an admin, the tutor's part taken back.

/**
 * An admin's adjustment of a released job (money back to the student): the provider refunding it, Stripe reversing
 * the tutor's transfer, settled, or failed (the provider refused the refund: nothing moved).
 */
export const PAYMENT_ADJUSTMENT_STATUSES = ['refunding', 'reversing', 'settled', 'failed'] as const;
export type PaymentAdjustmentStatus = (typeof PAYMENT_ADJUSTMENT_STATUSES)[number];
/**
 * Where an adjustment's tutor part came from: reversed from the tutor's Stripe account, taken from earnings not sent
 * yet, or recorded as owed by the tutor (their balance below zero: later shares pay it back first).
 */
export const PAYMENT_ADJUSTMENT_TUTOR_OUTCOMES = ['reversed', 'from_earnings', 'owed_by_tutor'] as const;

export const adjustmentMessages = {
  amountInvalid: 'Enter the amount to give back, in whole cents, more than 0.',
  noteRequired: 'Say why the money goes back: the note is kept with the adjustment.',
  noteTooLong: 'The note can be at most 500 characters.',
  notReleased:
    'Only a job whose money was released in full, with nothing given back since, can be adjusted: a job still ' +
    'holding money is refunded through a refund request.',
  tooMuch: 'The amount is more than the student paid for this job.',
  chargeback: 'This job has a chargeback at Stripe: its money is settled there.',
  stripeUnavailable: 'Stripe did not answer, so nothing was given back. Please try again in a moment.',
  refundedAfterAll:
    'Stripe had made the earlier refund of this job after all: it is recorded now, and nothing more was given back.',
  erasedPerson: 'The student or the tutor of this job deleted their account: its money can no longer be given back.',
} as const;

/** An admin's adjustment of a released job: how much goes back to the student, and why. */
export const adjustmentInputSchema = z.object({
  amountCents: z
    .number({ error: adjustmentMessages.amountInvalid })
    .int(adjustmentMessages.amountInvalid)
    .positive(adjustmentMessages.amountInvalid)
    .max(100_000_000, adjustmentMessages.tooMuch),
  note: requiredText(adjustmentMessages.noteRequired, 500, adjustmentMessages.noteTooLong),
});
export type AdjustmentInput = z.infer<typeof adjustmentInputSchema>;

export const adjustmentSchema = z.object({
  id: z.uuid(),
  requestId: z.uuid(),
  amountCents: z.number().int(),
  /** The tutor's part of the amount, and the platform commission's. */
  tutorCents: z.number().int(),
  commissionCents: z.number().int(),
  status: z.enum(PAYMENT_ADJUSTMENT_STATUSES),
  /** Reversed from the tutor's Stripe account, or recorded as owed by the tutor; null until known. */
  tutorOutcome: z.enum(PAYMENT_ADJUSTMENT_TUTOR_OUTCOMES).nullable(),
  /** What the provider last answered a call that failed. */
  lastError: z.string().nullable(),
  createdAt: isoDate,
});
export type Adjustment = z.infer<typeof adjustmentSchema>;
