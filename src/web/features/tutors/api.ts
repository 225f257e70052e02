import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { Review, ReviewInput, ReviewsPage, SharedJob, TutorProfile } from '#shared/schemas/reviews.ts';
import type { DirectoryPage, DirectoryQueryInput } from '#shared/schemas/directory.ts';
import type { SavedTutorsPage } from '#shared/schemas/saved-tutors.ts';
import { apiFetch } from '#web/lib/api.ts';

export const tutorsKeys = {
  all: ['tutors'] as const,
  profile: (tutorId: string) => ['tutors', 'profile', tutorId] as const,
  reviews: (tutorId: string) => ['tutors', 'reviews', tutorId] as const,
  sharedJobs: (partnerId: string) => ['tutors', 'shared-jobs', partnerId] as const,
  directory: (search: string) => ['tutors', 'directory', search] as const,
  savedIds: ['tutors', 'saved', 'ids'] as const,
  saved: ['tutors', 'saved', 'list'] as const,
};

/** The ids of the signed-in student's saved tutors (the hearts); nobody else asks. */
export function useSavedTutorIds({ enabled }: { enabled: boolean }) {
  return useQuery({
    queryKey: tutorsKeys.savedIds,
    queryFn: ({ signal }) => apiFetch<{ tutorIds: string[] }>('/api/tutors/saved/ids', { signal }),
    select: (data) => new Set(data.tutorIds),
    enabled,
  });
}

/** The student's saved tutors, the latest saved first, a page at a time. */
export function useSavedTutors() {
  return useInfiniteQuery({
    queryKey: tutorsKeys.saved,
    queryFn: ({ pageParam, signal }) =>
      apiFetch<SavedTutorsPage>(`/api/tutors/saved${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`, {
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

/** Saves or forgets a tutor; the hearts turn at once and the lists are fetched again. */
export function useToggleSavedTutor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ tutorId, save }: { tutorId: string; save: boolean }) =>
      apiFetch<null>(`/api/tutors/${encodeURIComponent(tutorId)}/saved`, { method: save ? 'PUT' : 'DELETE' }),
    onMutate: ({ tutorId, save }) => {
      queryClient.setQueryData<{ tutorIds: string[] }>(tutorsKeys.savedIds, (data) =>
        data ? { tutorIds: save ? [...data.tutorIds, tutorId] : data.tutorIds.filter((id) => id !== tutorId) } : data,
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['tutors', 'saved'] }),
  });
}

/** Find Tutors' pages for a search (the address's query string without a cursor), fetched one after another. */
const directoryQueryOptions = (search: string) =>
  infiniteQueryOptions({
    queryKey: tutorsKeys.directory(search),
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams(search);
      if (pageParam) params.set('cursor', pageParam);
      return apiFetch<DirectoryPage>(`/api/tutors?${params}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });

export function useDirectory(search: string) {
  return useInfiniteQuery(directoryQueryOptions(search));
}

/** The directory's filters, by their names in the address and in the API (the same). */
export const DIRECTORY_FILTERS = [
  'q',
  'subjects',
  'minRating',
  'minRateCents',
  'maxRateCents',
  'respondsWithin',
  'sort',
] as const satisfies readonly (keyof DirectoryQueryInput)[];
export type DirectoryFilter = (typeof DIRECTORY_FILTERS)[number];

/** The API's query string for the address's filters: only the ones set, in a fixed order, so a search has one key. */
export function toDirectorySearch(address: URLSearchParams) {
  const params = new URLSearchParams();
  for (const key of DIRECTORY_FILTERS) {
    const value = address.get(key)?.trim();
    if (value) params.set(key, value);
  }
  return params.toString();
}

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
