// The directory's "Best match" order, in points: the rating (pulled toward a prior while a tutor has few reviews, so
// one 5-star review does not outrank fifty 4.9s), completed jobs (up to a cap) and how fast the tutor first responds.
// The database keeps the same sum as a generated column (users.match_score); a test holds the two together.

export const BEST_MATCH = {
  /** A tutor's rating counts as if it began with this many reviews of `priorStars` stars. */
  priorReviews: 5,
  priorStars: 4,
  /** Points per star of that rating (5 stars: 500). */
  pointsPerStar: 100,
  /** Points per completed job, counted up to `jobsCap` jobs. */
  pointsPerJob: 2,
  jobsCap: 100,
  /** Points by median first-response time: within each number of minutes, the first that applies. */
  responsePoints: [
    { withinMinutes: 60, points: 100 },
    { withinMinutes: 6 * 60, points: 60 },
    { withinMinutes: 24 * 60, points: 30 },
  ],
} as const;

/** How the page explains the order. */
export const BEST_MATCH_EXPLANATION =
  'Best match ranks tutors by their rating (which counts for more the more students rated them), their completed jobs and how fast they respond to a new request.';

export type BestMatchInput = {
  reviewCount: number;
  reviewRatingSum: number;
  jobsCompleted: number;
  /** Median first-response minutes; null before the first bid. */
  responseMinutes: number | null;
};

/** The best-match score, in whole points (integer division, as the database computes it). */
export function bestMatchScore({ reviewCount, reviewRatingSum, jobsCompleted, responseMinutes }: BestMatchInput) {
  const { priorReviews, priorStars, pointsPerStar, pointsPerJob, jobsCap, responsePoints } = BEST_MATCH;
  const rating = Math.floor(
    (pointsPerStar * (reviewRatingSum + priorReviews * priorStars)) / (reviewCount + priorReviews),
  );
  const jobs = pointsPerJob * Math.min(jobsCompleted, jobsCap);
  const response =
    responseMinutes === null
      ? 0
      : (responsePoints.find(({ withinMinutes }) => responseMinutes <= withinMinutes)?.points ?? 0);
  return rating + jobs + response;
}
