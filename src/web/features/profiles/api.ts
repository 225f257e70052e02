import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Profile, Subject, TutorListing } from '#shared/schemas/profiles.ts';
import type { TutorAbout } from '#shared/schemas/reviews.ts';
import { apiFetch } from '#web/lib/api.ts';
import { requestsKeys } from '#web/features/requests/api.ts';

const profileQueryKey = ['profile', 'me'] as const;

function fetchProfile({ signal }: { signal?: AbortSignal } = {}) {
  return apiFetch<Profile>('/api/profile', { signal });
}

const profileQueryOptions = queryOptions({
  queryKey: profileQueryKey,
  queryFn: ({ signal }) => fetchProfile({ signal }),
});

export function useProfile() {
  return useQuery(profileQueryOptions);
}

/** Teachers only; the answer carries the saved subjects (and may carry the whole profile). */
export function updateSpecializations(subjectIds: string[]) {
  return apiFetch<{ specializations: Subject[] } & Partial<Profile>>('/api/profile/specializations', {
    method: 'PUT',
    body: { subjectIds },
  });
}

export function useUpdateSpecializations() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSpecializations,
    onSuccess: ({ specializations }) => {
      queryClient.setQueryData(profileQueryKey, (profile) => (profile ? { ...profile, specializations } : profile));
    },
    onSettled: async () => {
      // Other subjects, other jobs: the jobs page's list and filter are asked for again.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: profileQueryKey }),
        queryClient.invalidateQueries({ queryKey: requestsKeys.jobsAll }),
        queryClient.invalidateQueries({ queryKey: requestsKeys.teacherSubjects }),
      ]);
    },
  });
}

/** A teacher's headline and about text; the profile shows the saved texts. */
export function useUpdateTutorAbout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TutorAbout) => apiFetch<TutorAbout>('/api/profile/about', { method: 'PUT', body: input }),
    onSuccess: (saved) =>
      queryClient.setQueryData(profileQueryKey, (profile) => (profile ? { ...profile, ...saved } : profile)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: profileQueryKey }),
  });
}

/** A teacher's hourly rate and visibility to visitors; the profile shows the saved values. */
export function useUpdateTutorListing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TutorListing) => apiFetch<TutorListing>('/api/profile/listing', { method: 'PUT', body: input }),
    onSuccess: (saved) =>
      queryClient.setQueryData(profileQueryKey, (profile) => (profile ? { ...profile, ...saved } : profile)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: profileQueryKey }),
  });
}

/** After a new avatar: the profile shows it at once, then is fetched again. */
export function useSetProfileImage() {
  const queryClient = useQueryClient();
  return (image: string) => {
    queryClient.setQueryData(profileQueryKey, (profile) => (profile ? { ...profile, image } : profile));
    void queryClient.invalidateQueries({ queryKey: profileQueryKey });
  };
}
