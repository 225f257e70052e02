import { z } from 'zod';
import { REVIEW } from '../constants.ts';
import { cursorSchema } from './cursor.ts';
import { subjectSchema } from './profiles.ts';
import { requiredText } from './text-fields.ts';

// Tutor profiles, finished jobs, ratings and reviews, shared by the forms and the API.

const isoDate = z.iso.datetime({ offset: true });

export const reviewMessages = {
  headlineTooLong: `The headline can be at most ${REVIEW.headlineMax} characters`,
  aboutTooLong: `The about text can be at most ${REVIEW.aboutMax} characters`,
  ratingRequired: 'Please choose from 1 to 5 stars',
  bodyTooLong: `A review can be at most ${REVIEW.bodyMax} characters`,
  replyRequired: 'Please write your reply',
  replyTooLong: `A reply can be at most ${REVIEW.bodyMax} characters`,
  reasonRequired: 'Please say what is wrong with this review',
  noReviews: 'No reviews yet',
} as const;

/** Empty or whitespace-only text is stored as null. */
const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, message)
    .transform((value) => value || null)
    .nullish()
    .transform((value) => value ?? null);

/** A teacher's headline and about text on /profile. */
export const updateTutorAboutSchema = z.object({
  headline: optionalText(REVIEW.headlineMax, reviewMessages.headlineTooLong),
  about: optionalText(REVIEW.aboutMax, reviewMessages.aboutTooLong),
});

/** The headline and about text as stored. */
export const tutorAboutSchema = z.object({ headline: z.string().nullable(), about: z.string().nullable() });

export const reviewInputSchema = z.object({
  rating: z
    .number({ error: reviewMessages.ratingRequired })
    .int(reviewMessages.ratingRequired)
    .min(1, reviewMessages.ratingRequired)
    .max(5, reviewMessages.ratingRequired),
  body: optionalText(REVIEW.bodyMax, reviewMessages.bodyTooLong),
});

export const reviewReplySchema = z.object({
  body: requiredText(reviewMessages.replyRequired, REVIEW.bodyMax, reviewMessages.replyTooLong),
});

export const reviewReportSchema = z.object({
  reason: requiredText(reviewMessages.reasonRequired, REVIEW.bodyMax, reviewMessages.bodyTooLong),
});

/** What offer cards, search results and the chat header show of a tutor. */
export const tutorTrustSchema = z.object({
  /** The mean of the visible reviews' stars, null without any. */
  ratingAverage: z.number().nullable(),
  reviewCount: z.number().int(),
  jobsCompleted: z.number().int(),
});

export const reviewSchema = z.object({
  id: z.uuid(),
  tutorId: z.uuid(),
  requestId: z.uuid(),
  subjectName: z.string(),
  author: z.object({ id: z.uuid(), username: z.string(), image: z.string().nullable() }),
  rating: z.number().int(),
  body: z.string().nullable(),
  reply: z.string().nullable(),
  repliedAt: isoDate.nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
  /** Until when its author may still change it. */
  editableUntil: isoDate,
  /** Set once the tutor has reported it (the tutor's own view only). */
  isReported: z.boolean(),
});

export const reviewsPageSchema = z.object({ reviews: z.array(reviewSchema), nextCursor: z.string().nullable() });
export const reviewsQuerySchema = z.object({ cursor: cursorSchema.optional() });

/** One account of a review's pair as the admins see it: its age and what it did on the site. */
const reviewAccountSchema = z.object({
  id: z.uuid(),
  username: z.string(),
  createdAt: isoDate,
  /** Paid jobs: as the student for the student, as the tutor for the tutor. */
  jobs: z.int(),
  /** Cents paid through the site for those jobs (none under PAYMENTS_PROVIDER=none). */
  paidCents: z.int(),
  /** Reviews given, for the student; received, for the tutor. */
  reviews: z.int(),
});

/** A review listed for the admins to look at (REVIEWS_TO_LOOK_AT), with both accounts' age and history. */
export const reviewToLookAtSchema = z.object({
  id: z.uuid(),
  requestId: z.uuid(),
  subjectName: z.string(),
  rating: z.int(),
  body: z.string().nullable(),
  createdAt: isoDate,
  hiddenAt: isoDate.nullable(),
  /** The pair's paid jobs posted within the window before the review, this one included. */
  pairJobs: z.int(),
  lookedAt: isoDate.nullable(),
  student: reviewAccountSchema,
  tutor: reviewAccountSchema,
});
export const reviewsToLookAtPageSchema = z.object({
  items: z.array(reviewToLookAtSchema),
  nextCursor: z.string().nullable(),
});

/** A tutor's public page: never the e-mail address or any other private field. */
export const tutorProfileSchema = tutorTrustSchema.extend({
  id: z.uuid(),
  username: z.string(),
  image: z.string().nullable(),
  /** For signed-in users only: null for a visitor. */
  vhNumber: z.number().int().nullable(),
  headline: z.string().nullable(),
  about: z.string().nullable(),
  memberSince: isoDate,
  specializations: z.array(subjectSchema),
  /** The median time from a new job to the tutor's first answer to its student (bid or message), null without any. */
  medianFirstResponseMinutes: z.number().nullable(),
});

/** A job between the signed-in user and one other person, for the chat header and its rating prompt. */
export const sharedJobSchema = z.object({
  requestId: z.uuid(),
  /** For "Ask {name} again" in the same subject. */
  subjectId: z.uuid(),
  subjectName: z.string(),
  studentId: z.uuid(),
  tutorId: z.uuid(),
  isCompleted: z.boolean(),
  /** Refunded in full: the job is over without being completed. */
  isClosed: z.boolean(),
  completedAt: isoDate.nullable(),
  deliveredAt: isoDate.nullable(),
  review: reviewSchema.nullable(),
});
export const sharedJobsSchema = z.object({ jobs: z.array(sharedJobSchema) });

export const completeJobResponseSchema = z.object({ requestId: z.uuid(), completedAt: isoDate });
export const markDeliveredResponseSchema = z.object({ requestId: z.uuid(), deliveredAt: isoDate });

/** The admin's list of reported reviews, newest report first. */
export const adminReviewSchema = reviewSchema.extend({
  tutorName: z.string(),
  reportReason: z.string().nullable(),
  reportedAt: isoDate.nullable(),
  hiddenAt: isoDate.nullable(),
});
export const adminReviewsPageSchema = z.object({
  items: z.array(adminReviewSchema),
  nextCursor: z.string().nullable(),
});
export const hideReviewSchema = z.object({
  note: requiredText('Please add a note', REVIEW.bodyMax, reviewMessages.bodyTooLong),
});

export type TutorAbout = z.infer<typeof tutorAboutSchema>;
export type ReviewInput = z.infer<typeof reviewInputSchema>;
export type TutorTrust = z.infer<typeof tutorTrustSchema>;
export type Review = z.infer<typeof reviewSchema>;
export type ReviewsPage = z.infer<typeof reviewsPageSchema>;
export type TutorProfile = z.infer<typeof tutorProfileSchema>;
export type SharedJob = z.infer<typeof sharedJobSchema>;
export type AdminReview = z.infer<typeof adminReviewSchema>;
export type AdminReviewsPage = z.infer<typeof adminReviewsPageSchema>;
export type ReviewToLookAt = z.infer<typeof reviewToLookAtSchema>;
export type ReviewsToLookAtPage = z.infer<typeof reviewsToLookAtPageSchema>;
