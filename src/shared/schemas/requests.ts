import { z } from 'zod';
import { tutorTrustSchema } from './reviews.ts';
import {
  BID_STATUSES,
  DESCRIPTION_MIN_LENGTH,
  DIRECT_REQUEST_STATES,
  EDUCATION_LEVELS,
  MIB,
  REQUEST_ATTACHMENT_TYPES,
  REQUEST_FILE,
  REQUEST_STATUSES,
  REQUEST_TYPES,
  SUPPORT_TYPES,
  type EducationLevel,
  type RequestType,
  type SupportType,
} from '#shared/constants.ts';
import { budgetMessages, budgetProblem, fallbackMaxBudget, wizardBudget } from '#shared/rules/budget.ts';
import { MAX_AMOUNT_CENTS } from '#shared/rules/money.ts';
import type { FileLike } from '#shared/rules/avatar.ts';
import { cursorSchema } from './cursor.ts';

// Requests, bids, offers and jobs (SPEC.md §5 "Standard request form", "Wizard budgets", "Bid",
// "Request attachments"), shared by the API and the web forms.

const requestMessages = {
  type: 'Please choose a request type',
  subject: 'Please choose a subject',
  description: `Description must be at least ${DESCRIPTION_MIN_LENGTH} characters`,
  descriptionMax: 'Description must be at most 5000 characters',
  budget: 'Please enter a budget',
  deadline: 'Please enter a valid deadline',
  deadlinePast: 'Deadline must be in the future',
  level: 'Please choose an education level',
  supportType: 'Please choose exam preparation or general support',
  bidAmount: 'Please enter a valid bid amount.',
  directTutor: 'This tutor cannot take requests in this subject',
  ...budgetMessages,
} as const;

export const attachmentMessages = {
  /** The server receives a large file cut just past the limit: a size that rounds to the limit reads "over 10". */
  tooLarge: (sizeBytes: number) => {
    const limit = REQUEST_FILE.maxBytes / MIB;
    const size = (sizeBytes / MIB).toFixed(1);
    return `File too large - Maximum file size is ${limit}MB. Your file is ${Number(size) <= limit ? `over ${limit}` : size} MB.`;
  },
  tooMany: `Maximum files reached - You can only upload up to ${REQUEST_FILE.maxFiles} files.`,
  badType: 'Invalid file type - Only images and documents are allowed.',
} as const;

/** Adds the per-file rules to a file schema: `z.instanceof(File)` in the browser (the browser's type), the upload on the server (the detected type). */
const withAttachmentRules = <T extends FileLike>(file: z.ZodType<T>) =>
  file
    .refine((value) => value.size <= REQUEST_FILE.maxBytes, {
      error: (issue) => attachmentMessages.tooLarge((issue.input as T).size),
    })
    .refine(
      (value) => (REQUEST_ATTACHMENT_TYPES as readonly string[]).includes(value.type),
      attachmentMessages.badType,
    );

/** At most 10 files, each checked by `file`. */
export const attachmentListSchema = <T extends FileLike>(file: z.ZodType<T>) =>
  z.array(withAttachmentRules(file)).max(REQUEST_FILE.maxFiles, attachmentMessages.tooMany);

// Optional free text: trimmed, and an empty answer is no answer.
const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .optional()
    .transform((value) => value || undefined);

/** Whole cents (docs/decisions/0038): forms parse what is typed with `parseCents`, the API takes the cents. */
const centsSchema = (message: string) => z.number({ error: message }).int(message);

const budgetCents = centsSchema(requestMessages.budget)
  .min(0, budgetMessages.negative)
  .max(9_999_900, budgetMessages.range);

/**
 * The fields of a new request, without the cross-field budget rules (forms `.pick()` from here).
 * The assistant wizard's answers map onto the same fields (see `wizardRequestToInput`).
 */
export const createRequestFieldsSchema = z.object({
  type: z.enum(REQUEST_TYPES, { error: requestMessages.type }),
  subjectId: z.uuid({ error: requestMessages.subject }),
  description: z
    .string({ error: requestMessages.description })
    .trim()
    .min(DESCRIPTION_MIN_LENGTH, requestMessages.description)
    .max(5000, requestMessages.descriptionMax),
  budgetMinCents: budgetCents,
  /** Left out: 1500 for tutoring, 999900 ("no maximum", shown as "$5+") for assignments. */
  budgetMaxCents: budgetCents.optional(),
  /** ISO 8601 with an offset or Z, in the future. */
  deadline: z.iso
    .datetime({ offset: true, error: requestMessages.deadline })
    .refine((value) => new Date(value).getTime() > Date.now(), requestMessages.deadlinePast)
    .optional(),
  level: z.enum(EDUCATION_LEVELS, { error: requestMessages.level }).optional(),
  topic: optionalText(200, 'Topic'),
  requirements: optionalText(2000, 'Requirements'),
  schedule: optionalText(500, 'Schedule'),
  supportType: z.enum(SUPPORT_TYPES, { error: requestMessages.supportType }).optional(),
  /** Sent to this tutor only ("Ask {name} for help"): a tutor of the subject who can take requests. */
  directTutorId: z.uuid({ error: requestMessages.directTutor }).optional(),
});

/**
 * Adds the budget rules (max >= min, the type's range) and fills a missing maximum. The issue goes on the
 * field at fault: the order rule and a too-high maximum on budgetMax, a too-low minimum on budgetMin.
 */
export const withBudgetRules = <
  T extends { type: RequestType; budgetMinCents: number; budgetMaxCents?: number | undefined },
  Input,
>(
  schema: z.ZodType<T, Input>,
) =>
  schema
    .superRefine((value, ctx) => {
      const { type, budgetMinCents: minCents } = value;
      const maxCents = value.budgetMaxCents ?? fallbackMaxBudget(type);
      const problem = budgetProblem({ type, minCents, maxCents });
      // A negative amount is already reported on its own field.
      if (!problem || problem === budgetMessages.negative) return;
      const onMin = problem === budgetMessages.range && budgetProblem({ type, minCents, maxCents: minCents }) !== null;
      ctx.addIssue({ code: 'custom', message: problem, path: [onMin ? 'budgetMinCents' : 'budgetMaxCents'] });
    })
    .transform((value) => ({ ...value, budgetMaxCents: value.budgetMaxCents ?? fallbackMaxBudget(value.type) }));

export const createRequestSchema = withBudgetRules(createRequestFieldsSchema);

export type CreateRequestFields = z.input<typeof createRequestFieldsSchema>;
export type CreateRequestInput = z.output<typeof createRequestSchema>;

/** The assistant wizard's answers, per first-step choice (SPEC.md §2 "Assistant wizard"). */
export type WizardAnswers =
  | {
      type: 'tutoring';
      level: EducationLevel;
      subjectId: string;
      topic: string;
      supportType: SupportType;
      schedule: string;
    }
  | {
      type: 'assignment';
      topic: string;
      subjectId: string;
      level: EducationLevel;
      /** ISO 8601 with offset. */
      deadline: string;
      /** The maximum entered on the budget step, in cents; null when left empty. */
      budgetMaxCents: number | null;
      budgetSkipped: boolean;
    };

const supportLabels: Record<SupportType, string> = {
  exam_prep: 'exam preparation',
  general_support: 'general support',
};

/**
 * Maps the wizard's answers onto the create-request fields, so both forms post the same body:
 * level, subject, topic, schedule, deadline map to their fields; "exam prep or general support" to supportType;
 * the budget follows the wizard rules (`wizardBudget`); the description, which the wizard does not ask for, is
 * written from the answers ("Tutoring in Algebra (exam preparation). Preferred schedule: …").
 */
export function wizardRequestToInput(answers: WizardAnswers): CreateRequestFields {
  if (answers.type === 'tutoring') {
    const budget = wizardBudget({ type: 'tutoring' });
    return {
      type: 'tutoring',
      subjectId: answers.subjectId,
      level: answers.level,
      topic: answers.topic,
      supportType: answers.supportType,
      schedule: answers.schedule,
      description: `Tutoring in ${answers.topic.trim()} (${supportLabels[answers.supportType]}). Preferred schedule: ${answers.schedule.trim()}.`,
      budgetMinCents: budget.minCents,
      budgetMaxCents: budget.maxCents,
    };
  }
  const budget = wizardBudget({
    type: 'assignment',
    enteredMaxCents: answers.budgetMaxCents,
    skipped: answers.budgetSkipped,
  });
  return {
    type: 'assignment',
    subjectId: answers.subjectId,
    level: answers.level,
    topic: answers.topic,
    deadline: answers.deadline,
    description: `Assignment help: ${answers.topic.trim()}.`,
    budgetMinCents: budget.minCents,
    budgetMaxCents: budget.maxCents,
  };
}

export const placeBidSchema = z.object({
  amountCents: centsSchema(requestMessages.bidAmount)
    .positive(requestMessages.bidAmount)
    .max(MAX_AMOUNT_CENTS, requestMessages.bidAmount),
  message: z
    .string()
    .trim()
    .max(2000, 'Message must be at most 2000 characters')
    .nullish()
    .transform((value) => value || null),
});
export const DIRECT_TUTOR_MESSAGE = requestMessages.directTutor;
export type PlaceBidInput = z.output<typeof placeBidSchema>;

// Answers.

const isoDate = z.iso.datetime({ offset: true });

/** A request's file: `url` downloads it (owner, teachers who see the job, bidders). */
export const attachmentSchema = z.object({
  index: z.number().int(),
  name: z.string(),
  type: z.string(),
  size: z.number().int(),
  url: z.string(),
});

/** What a request card shows (My Requests, the offers page, job cards). */
const requestCardSchema = z.object({
  id: z.uuid(),
  type: z.enum(REQUEST_TYPES),
  subjectId: z.uuid(),
  subjectName: z.string(),
  description: z.string(),
  budgetMinCents: z.int(),
  /** 99900 or 999900 mean "no maximum": display with `formatBudget`. */
  budgetMaxCents: z.int(),
  status: z.enum(REQUEST_STATUSES),
  deadline: isoDate.nullable(),
  level: z.enum(EDUCATION_LEVELS).nullable(),
  topic: z.string().nullable(),
  requirements: z.string().nullable(),
  schedule: z.string().nullable(),
  supportType: z.enum(SUPPORT_TYPES).nullable(),
  attachments: z.array(attachmentSchema),
  acceptedBidId: z.uuid().nullable(),
  createdAt: isoDate,
  /** The 48-hour expiry counts from here: the creation, or when a direct request was opened to all. */
  openSince: isoDate,
  /** A request sent to one tutor ("Sent to {tutorName}"), and where that stands; null when posted to all. */
  direct: z
    .object({
      /** Null once that tutor's account is gone. */
      tutorId: z.uuid().nullable(),
      tutorName: z.string().nullable(),
      state: z.enum(DIRECT_REQUEST_STATES),
      declineReason: z.string().nullable(),
    })
    .nullable(),
});

const myRequestSchema = requestCardSchema.extend({ bidCount: z.number().int() });

export const createRequestResponseSchema = z.object({
  request: requestCardSchema,
  /** Teachers of the subject who were told about it. */
  notifiedCount: z.number().int(),
});

export const myRequestsQuerySchema = z.object({
  /** live: not closed for display (see isClosedForDisplay); expired: the rest. */
  status: z.enum(['live', 'expired']).default('live'),
  cursor: cursorSchema.optional(),
});

export const myRequestsPageSchema = z.object({
  requests: z.array(myRequestSchema),
  nextCursor: cursorSchema.nullable(),
});

export const requestDetailSchema = z.object({
  request: requestCardSchema,
  offers: z.object({
    count: z.number().int(),
    lowestCents: z.int().nullable(),
    highestCents: z.int().nullable(),
  }),
  notifiedCount: z.number().int(),
});

export const offerSchema = z.object({
  id: z.uuid(),
  tutorId: z.uuid(),
  username: z.string(),
  image: z.string().nullable(),
  vhNumber: z.number().int(),
  amountCents: z.int(),
  message: z.string().nullable(),
  status: z.enum(BID_STATUSES),
  createdAt: isoDate,
  ...tutorTrustSchema.shape,
});

const acceptedOffer = {
  requestId: z.uuid(),
  bidId: z.uuid(),
  /** Open the chat with `/chat?tutorId={tutorId}`. */
  tutorId: z.uuid(),
};
/**
 * What accepting did: with no payment provider the offer is accepted and the chat open; with one, a checkout holds
 * the request until the student pays it at `/checkout/{checkoutId}`.
 */
export const acceptBidResponseSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('accepted'), ...acceptedOffer, roomId: z.uuid() }),
  z.object({ outcome: z.literal('checkout'), ...acceptedOffer, checkoutId: z.uuid() }),
]);

export const jobsQuerySchema = z.object({
  subjectId: z.uuid({ error: requestMessages.subject }).optional(),
  type: z.enum(REQUEST_TYPES, { error: requestMessages.type }).optional(),
  cursor: cursorSchema.optional(),
});

const jobSchema = requestCardSchema.omit({ acceptedBidId: true }).extend({
  attachmentCount: z.number().int(),
  /** This teacher has bid already (button "Already Bid"). */
  alreadyBid: z.boolean(),
});

export const jobsPageSchema = z.object({
  jobs: z.array(jobSchema),
  nextCursor: cursorSchema.nullable(),
  /** Tab counts for the current subject filter, whatever the type filter and page. */
  counts: z.object({ all: z.number().int(), tutoring: z.number().int(), assignment: z.number().int() }),
});

export const declineDirectRequestSchema = z.object({
  reason: z
    .string()
    .trim()
    .max(500, 'Reason must be at most 500 characters')
    .nullish()
    .transform((value) => value || null),
});
export type DeclineDirectRequestInput = z.output<typeof declineDirectRequestSchema>;

export const bidSchema = z.object({
  id: z.uuid(),
  requestId: z.uuid(),
  amountCents: z.int(),
  message: z.string().nullable(),
  status: z.enum(BID_STATUSES),
  createdAt: isoDate,
});

export type Attachment = z.infer<typeof attachmentSchema>;
export type RequestCard = z.infer<typeof requestCardSchema>;
export type MyRequest = z.infer<typeof myRequestSchema>;
export type MyRequestsPage = z.infer<typeof myRequestsPageSchema>;
export type RequestDetail = z.infer<typeof requestDetailSchema>;
export type Offer = z.infer<typeof offerSchema>;
export type AcceptBidResponse = z.infer<typeof acceptBidResponseSchema>;
export type Job = z.infer<typeof jobSchema>;
export type JobsPage = z.infer<typeof jobsPageSchema>;
export type Bid = z.infer<typeof bidSchema>;
