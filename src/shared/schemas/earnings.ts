import { z } from 'zod';
import { JOB_PAYMENT_STATES, PAYOUT_STATUSES, STRIPE_TRANSFER_STATUSES } from '../constants.ts';

// A tutor's earnings: money held for their jobs (pending), released to them (available), and paid out.

const isoDate = z.iso.datetime({ offset: true });

/** One job's money from the tutor's side: what the student paid, the commission and the tutor's share. */
export const earningsJobSchema = z.object({
  requestId: z.uuid(),
  subjectName: z.string(),
  studentName: z.string(),
  state: z.enum(JOB_PAYMENT_STATES),
  /** What the student paid for the job. */
  amountCents: z.number().int(),
  /** The commission on the released cents; while held, what it will be at today's rate. */
  commissionCents: z.number().int(),
  tutorCents: z.number().int(),
  paidAt: isoDate,
  releasedAt: isoDate.nullable(),
});

export const payoutSchema = z.object({
  id: z.uuid(),
  amountCents: z.number().int(),
  status: z.enum(PAYOUT_STATUSES),
  requestedAt: isoDate,
  paidAt: isoDate.nullable(),
});

/** Under Stripe: the tutor's Connect account, as Stripe last told it. */
export const payoutSetupSchema = z.object({
  /** The tutor has begun Stripe's onboarding (their account exists). */
  started: z.boolean(),
  /** Stripe may pay the tutor: released earnings are transferred to their account. */
  payoutsEnabled: z.boolean(),
  /** What Stripe still needs from the tutor (Stripe's names for the fields). */
  requirementsDue: z.array(z.string()),
});

/** Under Stripe: a released job's transfer to the tutor's account, waiting for payout set-up or made. */
export const stripeTransferSchema = z.object({
  requestId: z.uuid(),
  subjectName: z.string(),
  amountCents: z.number().int(),
  status: z.enum(STRIPE_TRANSFER_STATUSES),
  createdAt: isoDate,
  transferredAt: isoDate.nullable(),
  /** Stripe refused it or a try failed: it is tried again, or waits for an admin; the money is still the tutor's. */
  delayed: z.boolean(),
});

export const earningsSchema = z.object({
  /** The tutor's share of money held for their jobs, released when the job is completed. */
  pendingCents: z.number().int(),
  /** Released to the tutor and not paid out yet (an adjustment can leave it below zero). */
  availableCents: z.number().int(),
  paidOutCents: z.number().int(),
  /** The platform's commission in basis points (1,500 is 15 %). */
  commissionBasisPoints: z.number().int(),
  adultConfirmedAt: isoDate.nullable(),
  /** Newest first, the latest 100. */
  jobs: z.array(earningsJobSchema),
  /** Newest first, the latest 50. */
  payouts: z.array(payoutSchema),
  /** Under Stripe: the payout set-up (there is no payout request; Stripe pays out on its schedule); else null. */
  payoutSetup: payoutSetupSchema.nullable(),
  /** Under Stripe: the transfers of released earnings, newest first, the latest 50; else empty. */
  transfers: z.array(stripeTransferSchema),
});

/** The address of Stripe's onboarding, where Earnings sends the tutor. */
export const payoutSetupLinkSchema = z.object({ url: z.url() });

export const adultConfirmationSchema = z.object({
  confirmed: z.literal(true, { error: 'Please tick the box to confirm that you are 18 or older.' }),
});

export type EarningsJob = z.infer<typeof earningsJobSchema>;
export type Payout = z.infer<typeof payoutSchema>;
export type Earnings = z.infer<typeof earningsSchema>;
export type PayoutSetup = z.infer<typeof payoutSetupSchema>;
export type StripeTransferView = z.infer<typeof stripeTransferSchema>;
