// The tutors feature's public entry, by concern in its own modules: a tutor's public page, the reviews of their jobs
// and the trust counters on their users row.
export { listDirectory } from './directory.ts';
export { getTutorProfile } from './profile.ts';
export {
  createReview,
  hideReview,
  listJobReviews,
  listReportedReviews,
  listTutorReviews,
  replyToReview,
  reportReview,
  updateReview,
} from './reviews.ts';
export { listReviewsToLookAt, markReviewLookedAt } from './reviews-to-look-at.ts';
export { countCompletedJob, refreshResponseMinutes, toTutorTrust, tutorTrustColumns } from './trust-columns.ts';
