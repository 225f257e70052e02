// The tutors feature's public entry, by concern in its own modules: a tutor's public page, the reviews of their jobs
// and the trust counters on their users row.
export { listDirectory } from './directory.ts';
export { forgetSavedTutorsOf, listSavedTutorIds, listSavedTutors, saveTutor, unsaveTutor } from './saved.ts';
export { getTutorProfile, visibleToVisitors } from './profile.ts';
export { publicPageAt } from './public-page.tsx';
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
