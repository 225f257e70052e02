import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { Review, ReviewInput, ReviewsPage, SharedJob, TutorProfile } from '#shared/schemas/reviews.ts';
import { apiFetch } from '#web/lib/api.ts';

export const tutorsKeys = {
  all: ['tutors'] as const,
  profile: (tutorId: string) => ['tutors', 'profile', tutorId] as const,
  reviews: (tutorId: string) => ['tutors', 'reviews', tutorId] as const,
  sharedJobs: (partnerId: string) => ['tutors', 'shared-jobs', partnerId] as const,
};

const tutorProfileQueryOptions = (tutorId: string) =>
  queryOptions({
    queryKey: tutorsKeys.profile(tutorId),
    queryFn: ({ signal }) => apiFetch<TutorProfile>(`/api/tutors/${encodeURIComponent(tutorId)}`, { signal }),
  });

export function useTutorProfile(tutorId: string) {
  return useQuery(tutorProfileQueryOptions(tutorId));
}

const tutorReviewsQueryOptions = (tutorId: string) =>
  infiniteQueryOptions({
    queryKey: tutorsKeys.reviews(tutorId),
    queryFn: ({ pageParam, signal }) => {
      const query = pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : '';
      return apiFetch<ReviewsPage>(`/api/tutors/${encodeURIComponent(tutorId)}/reviews${query}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });

export function useTutorReviews(tutorId: string) {
  return useInfiniteQuery(tutorReviewsQueryOptions(tutorId));
}

/** The jobs between the signed-in user and this person, with their reviews (chat header, rating prompt). */
export function useSharedJobs(partnerId: string | null) {
  return useQuery({
    queryKey: tutorsKeys.sharedJobs(partnerId ?? ''),
    queryFn: ({ signal }) =>
      apiFetch<{ jobs: SharedJob[] }>(`/api/shared-jobs/${encodeURIComponent(partnerId ?? '')}`, { signal }),
    select: (data) => data.jobs,
    enabled: partnerId !== null,
  });
}

/** Writes the student's review of a job, or changes it (within 7 days) when `reviewId` is given. */
export function saveReview({
  requestId,
  reviewId,
  input,
}: {
  requestId: string;
  reviewId?: string | undefined;
  input: ReviewInput;
}) {
  return reviewId
    ? apiFetch<Review>(`/api/reviews/${encodeURIComponent(reviewId)}`, { method: 'PATCH', body: input })
    : apiFetch<Review>(`/api/requests/${encodeURIComponent(requestId)}/review`, { method: 'POST', body: input });
}

/** The tutor's one reply to a review, or their report of it to the admins. */
export function respondToReview({
  reviewId,
  kind,
  text,
}: {
  reviewId: string;
  kind: 'reply' | 'report';
  text: string;
}) {
  return apiFetch<Review>(`/api/reviews/${encodeURIComponent(reviewId)}/${kind}`, {
    method: 'POST',
    body: kind === 'reply' ? { body: text } : { reason: text },
  });
}

/** Saving, replying or reporting changes a tutor's page and the jobs lists: all of them are fetched again. */
function useTutorsMutation<TInput>(mutationFn: (input: TInput) => Promise<Review>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: tutorsKeys.all }) });
}

export const useSaveReview = () => useTutorsMutation(saveReview);
export const useRespondToReview = () => useTutorsMutation(respondToReview);
