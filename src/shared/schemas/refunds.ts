import { z } from 'zod';
import {
  JOB_PAYMENT_STATES,
  REFUND_REASONS,
  REFUND_REQUEST_STATUSES,
  REQUEST_TYPES,
  STRIPE_DISPUTE_OUTCOMES,
  STUDENT_REFUND_REASONS,
} from '../constants.ts';
import { requiredText } from './text-fields.ts';

const isoDateTime = z.iso.datetime({ offset: true });

// Refund requests, cancellations and the admins' decisions: the API's inputs and outputs, shared with the web app.

export const refundMessages = {
  /** The terms' own wording (SPEC.md §1), for any reason the terms do not cover. */
  notRefundable: 'Refunds apply only if a tutor misses a session or an assignment is not delivered.',
  chooseSession: 'Choose the session the tutor missed.',
  notThisJobsSession: 'This session is not one of this job’s.',
  sessionCancelled: 'This session was cancelled, so it was not missed.',
  sessionNotOverYet: 'A session counts as missed only once 15 minutes have passed since its start without the tutor.',
  tutorJoined: 'The tutor joined this session on time, so it was not missed.',
  notAnAssignment: 'Only an assignment has a deadline to miss.',
  deadlineNotPassed: 'The deadline of this assignment has not passed yet.',
  deliveredInTime: 'The tutor marked this assignment delivered before its deadline.',
  notCharged: 'This job was not paid through Virtual Help, so there is no payment to refund.',
  awaitingPayment: 'This job is not paid yet.',
  alreadyOpen: 'A refund request or cancellation for this job is already open.',
  alreadyRefunded: 'The money for this job has already been refunded.',
  released:
    'The money for this job has already been paid to the tutor, so it can no longer be refunded here. Write to us through the contact page and an admin will look at it.',
  alreadyAnswered: 'This refund request has already been answered.',
  notAwaitingAgreement: 'This cancellation is no longer waiting for an answer.',
  ownProposal: 'The other person has to agree to your proposal to cancel.',
  alreadyDecided: 'This refund request has already been decided.',
  partialRange: 'A partial refund is more than $0.00 and less than the whole amount.',
  noteRequired: 'Write a note that explains the decision.',
  noteTooLong: 'Note must be at most 2000 characters',
} as const;

export const askForRefundSchema = z.object({
  reason: z.enum(STUDENT_REFUND_REASONS, { error: refundMessages.notRefundable }),
  meetingId: z.uuid({ error: refundMessages.chooseSession }).optional(),
});

export const answerRefundSchema = z.object({
  answer: z.enum(['accept', 'contest'], { error: 'Choose to accept or contest.' }),
  note: z.string().trim().max(2000).optional(),
});

export const refundDecisionSchema = z.object({
  outcome: z.enum(['full', 'partial', 'none'], { error: 'Choose full, partial or no refund.' }),
  refundCents: z.number().int().positive().optional().describe('Only for a partial refund: the cents the student gets'),
  note: requiredText(refundMessages.noteRequired, 2000, refundMessages.noteTooLong),
});

export const refundRequestParamsSchema = z.object({ refundRequestId: z.uuid() });
export const jobParamsSchema = z.object({ requestId: z.uuid() });

export const refundRequestSchema = z.object({
  id: z.uuid(),
  requestId: z.uuid(),
  studentId: z.uuid(),
  tutorId: z.uuid(),
  reason: z.enum(REFUND_REASONS),
  openedBy: z.uuid().nullable().describe('Null when the platform opened it (a suspended tutor)'),
  meetingId: z.uuid().nullable(),
  status: z.enum(REFUND_REQUEST_STATUSES),
  heldCents: z.number().int(),
  refundCents: z.number().int().nullable(),
  answerDueAt: isoDateTime.nullable(),
  tutorAnswer: z.enum(['accepted', 'contested']).nullable(),
  tutorNote: z.string().nullable(),
  decisionNote: z.string().nullable(),
  decidedAt: isoDateTime.nullable(),
  refundedAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
});

/** A session of the job, as the refund form offers it. */
const jobSessionSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  startTime: isoDateTime,
  cancelledAt: isoDateTime.nullable(),
  /** The tutor's first Join, if any. */
  tutorJoinedAt: isoDateTime.nullable(),
});

/** What the job's people see of its refunds: its money state, its sessions, and its latest request. */
export const jobRefundsSchema = z.object({
  requestId: z.uuid(),
  type: z.enum(REQUEST_TYPES),
  paymentState: z.enum(JOB_PAYMENT_STATES),
  amountCents: z.number().int().nullable(),
  deadline: isoDateTime.nullable(),
  deliveredAt: isoDateTime.nullable(),
  sessions: z.array(jobSessionSchema),
  latest: refundRequestSchema.nullable(),
});

export type AskForRefundInput = z.infer<typeof askForRefundSchema>;
export type AnswerRefundInput = z.infer<typeof answerRefundSchema>;
export type RefundDecisionInput = z.infer<typeof refundDecisionSchema>;
export type RefundRequestView = z.infer<typeof refundRequestSchema>;
export type JobRefunds = z.infer<typeof jobRefundsSchema>;

/** A request in the admins' queue, with who the two people are. */
export const disputeSchema = refundRequestSchema.extend({
  studentName: z.string(),
  tutorName: z.string(),
  subjectName: z.string(),
});

/** What an admin weighs: the job's deadline and delivered mark, each session's joins, and the pair's chat. */
export const disputeEvidenceSchema = z.object({
  dispute: disputeSchema,
  job: z.object({ type: z.enum(REQUEST_TYPES), deadline: isoDateTime.nullable(), deliveredAt: isoDateTime.nullable() }),
  sessions: z.array(
    z.object({
      id: z.uuid(),
      title: z.string(),
      startTime: isoDateTime,
      cancelledAt: isoDateTime.nullable(),
      joins: z.array(z.object({ userId: z.uuid(), joinedAt: isoDateTime })),
    }),
  ),
  messages: z
    .array(z.object({ senderId: z.uuid(), content: z.string(), createdAt: isoDateTime }))
    .describe('The latest 50 messages of the pair’s chat, oldest first'),
});

/**
 * A chargeback opened at Stripe on a job's charge: while open the job's money is frozen; admins answer it in Stripe's
 * dashboard, and its outcome is recorded when Stripe closes it.
 */
export const chargebackSchema = z.object({
  id: z.string(),
  requestId: z.uuid(),
  subjectName: z.string(),
  studentName: z.string(),
  tutorName: z.string(),
  amountCents: z.number().int(),
  /** Stripe's reason, e.g. `fraudulent` or `product_not_received`. */
  reason: z.string(),
  /** Stripe's status, e.g. `needs_response` or `under_review`. */
  stripeStatus: z.string(),
  outcome: z.enum(STRIPE_DISPUTE_OUTCOMES).nullable(),
  openedAt: isoDateTime,
  closedAt: isoDateTime.nullable(),
});

export type Dispute = z.infer<typeof disputeSchema>;
export type Chargeback = z.infer<typeof chargebackSchema>;
export type DisputeEvidence = z.infer<typeof disputeEvidenceSchema>;
