import { z } from 'zod';
import { JOB_PAYMENT_STATES, PAYOUT_STATUSES } from '../constants.ts';

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
});

export const adultConfirmationSchema = z.object({
  confirmed: z.literal(true, { error: 'Please tick the box to confirm that you are 18 or older.' }),
});

export type EarningsJob = z.infer<typeof earningsJobSchema>;
export type Payout = z.infer<typeof payoutSchema>;
export type Earnings = z.infer<typeof earningsSchema>;
