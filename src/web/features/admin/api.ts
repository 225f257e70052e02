import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type {
  AddSubAdminInput,
  AdminAccess,
  AdminFlag,
  AdminFlagsPage,
  AdminListOrder,
  AdminMeetingStats,
  AdminReport,
  AdminReportsPage,
  AdminContactMessage,
  AdminModerationPattern,
  AdminStats,
  AdminUser,
  ContactMessagesPage,
  CreatePatternInput,
  PatternsPage,
  RepeatedSenders,
  AuditLogPage,
  DecideFlagInput,
  DecideReportInput,
  SubAdmin,
  SuspensionInput,
  SubAdminsPage,
  UpdateSubAdminInput,
} from '#shared/schemas/admin.ts';
import type { AdminReview, AdminReviewsPage, ReviewToLookAt, ReviewsToLookAtPage } from '#shared/schemas/reviews.ts';
import type { AdminAccountDeletionPage } from '#shared/schemas/account-deletion.ts';
import { ApiError, apiFetch } from '#web/lib/api.ts';

/** Every admin query's key, so a change can refresh exactly what it touched. */
const adminKeys = {
  me: ['admin', 'me'] as const,
  stats: ['admin', 'stats'] as const,
  reports: ['admin', 'reports'] as const,
  reviews: ['admin', 'reviews'] as const,
  reviewsToLookAt: ['admin', 'reviews', 'to-look-at'] as const,
  flags: ['admin', 'flags'] as const,
  meetings: ['admin', 'meetings'] as const,
  subAdmins: ['admin', 'sub-admins'] as const,
  auditLog: ['admin', 'audit-log'] as const,
  user: (userId: string) => ['admin', 'users', userId] as const,
  patterns: ['admin', 'patterns'] as const,
  contactMessages: ['admin', 'contact-messages'] as const,
  accountDeletions: ['admin', 'account-deletions'] as const,
};

/** The signed-in user's admin role, or null when they have none (403). The server checks it again on every call. */
export const adminAccessQueryOptions = queryOptions({
  queryKey: adminKeys.me,
  queryFn: async ({ signal }) => {
    try {
      return await apiFetch<AdminAccess>('/api/admin/me', { signal });
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return null;
      throw error;
    }
  },
  retry: false,
});

export function useAdminAccess(enabled: boolean) {
  return useQuery({ ...adminAccessQueryOptions, enabled });
}

export function useAdminStats() {
  return useQuery({
    queryKey: adminKeys.stats,
    queryFn: ({ signal }) => apiFetch<AdminStats>('/api/admin/stats', { signal }),
    retry: false,
  });
}

/** The filter of a paged admin table: status (all when undefined) and the Created At order. */
export type AdminTableFilter<S extends string = string> = { status?: S | undefined; order: AdminListOrder };

/** A paged admin list: `path` with the filter and the cursor of each next page. */
function adminPagesOptions<P extends { nextCursor: string | null }>(
  key: readonly string[],
  path: string,
  filter: Partial<AdminTableFilter> = {},
) {
  return infiniteQueryOptions({
    queryKey: [...key, filter],
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams();
      if (filter.status) query.set('status', filter.status);
      if (filter.order) query.set('order', filter.order);
      if (pageParam) query.set('cursor', pageParam);
      return apiFetch<P>(`${path}?${query}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    retry: false,
  });
}

export const useAdminReports = (filter: AdminTableFilter<AdminReport['status']>) =>
  useInfiniteQuery(adminPagesOptions<AdminReportsPage>(adminKeys.reports, '/api/admin/reports', filter));

/** Reviews their tutors reported, newest report first. */
export const useReportedReviews = () =>
  useInfiniteQuery(adminPagesOptions<AdminReviewsPage>(adminKeys.reviews, '/api/admin/reviews'));

export const useReviewsToLookAt = () =>
  useInfiniteQuery(adminPagesOptions<ReviewsToLookAtPage>(adminKeys.reviewsToLookAt, '/api/admin/reviews/to-look-at'));

export const useAdminFlags = (filter: AdminTableFilter<AdminFlag['status']>) =>
  useInfiniteQuery(adminPagesOptions<AdminFlagsPage>(adminKeys.flags, '/api/admin/flags', filter));

/** The users with repeated refused attempts in the last 24 hours (the top of Illegal Content). */
export function useRepeatedSenders() {
  return useQuery({
    queryKey: [...adminKeys.flags, 'repeated-senders'],
    queryFn: ({ signal }) => apiFetch<RepeatedSenders>('/api/admin/flags/repeated-senders', { signal }),
  });
}

export const useSubAdmins = (filter: AdminTableFilter) =>
  useInfiniteQuery(adminPagesOptions<SubAdminsPage>(adminKeys.subAdmins, '/api/admin/sub-admins', filter));

export const useAuditLog = () =>
  useInfiniteQuery(adminPagesOptions<AuditLogPage>(adminKeys.auditLog, '/api/admin/audit-log'));

export const useAccountDeletions = () =>
  useInfiniteQuery(
    adminPagesOptions<AdminAccountDeletionPage>(adminKeys.accountDeletions, '/api/admin/account-deletions'),
  );

export function useMeetingStats() {
  return useQuery({
    queryKey: adminKeys.meetings,
    queryFn: ({ signal }) => apiFetch<AdminMeetingStats>('/api/admin/meetings/stats', { signal }),
    retry: false,
  });
}

/** A change made in the panel: afterwards the lists and counters it touches, and the audit log, are fetched again. */
function useAdminMutation<I, O>(mutationFn: (input: I) => Promise<O>, touches: readonly (readonly string[])[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () =>
      Promise.all(
        [...touches, adminKeys.stats, adminKeys.auditLog].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}

export const useDecideReport = () =>
  useAdminMutation(
    ({ id, input }: { id: string; input: DecideReportInput }) =>
      apiFetch<AdminReport>(`/api/admin/reports/${id}/decision`, { method: 'POST', body: input }),
    [adminKeys.reports],
  );

export const useHideReview = () =>
  useAdminMutation(
    ({ id, note }: { id: string; note: string }) =>
      apiFetch<AdminReview>(`/api/admin/reviews/${id}/hide`, { method: 'POST', body: { note } }),
    [adminKeys.reviews],
  );

export const useLookAtReview = () =>
  useAdminMutation(
    (id: string) => apiFetch<ReviewToLookAt>(`/api/admin/reviews/${id}/looked-at`, { method: 'POST' }),
    [adminKeys.reviewsToLookAt],
  );

export const useDecideFlag = () =>
  useAdminMutation(
    ({ id, input }: { id: string; input: DecideFlagInput }) =>
      apiFetch<AdminFlag>(`/api/admin/flags/${id}/decision`, { method: 'POST', body: input }),
    [adminKeys.flags],
  );

export const useAddSubAdmin = () =>
  useAdminMutation(
    (input: AddSubAdminInput) => apiFetch<SubAdmin>('/api/admin/sub-admins', { method: 'POST', body: input }),
    [adminKeys.subAdmins],
  );

export const useUpdateSubAdmin = () =>
  useAdminMutation(
    ({ userId, input }: { userId: string; input: UpdateSubAdminInput }) =>
      apiFetch<SubAdmin>(`/api/admin/sub-admins/${userId}`, { method: 'PUT', body: input }),
    [adminKeys.subAdmins],
  );

export const useRemoveSubAdmin = () =>
  useAdminMutation(
    (userId: string) => apiFetch<void>(`/api/admin/sub-admins/${userId}`, { method: 'DELETE' }),
    [adminKeys.subAdmins],
  );

export function useAdminUser(userId: string) {
  return useQuery({
    queryKey: adminKeys.user(userId),
    queryFn: ({ signal }) => apiFetch<AdminUser>(`/api/admin/users/${userId}`, { signal }),
    retry: false,
  });
}

/** Suspends or reinstates a user; the page shows the answer at once. */
export function useSuspension(userId: string) {
  const queryClient = useQueryClient();
  return useAdminMutation(
    async ({ action, input }: { action: 'suspension' | 'reinstatement'; input: SuspensionInput }) => {
      const user = await apiFetch<AdminUser>(`/api/admin/users/${userId}/${action}`, { method: 'POST', body: input });
      queryClient.setQueryData(adminKeys.user(userId), user);
      return user;
    },
    [],
  );
}

export const usePatterns = (filter: AdminTableFilter<'active' | 'inactive'>) =>
  useInfiniteQuery(adminPagesOptions<PatternsPage>(adminKeys.patterns, '/api/admin/patterns', filter));

export const useCreatePattern = () =>
  useAdminMutation(
    (input: CreatePatternInput) =>
      apiFetch<AdminModerationPattern>('/api/admin/patterns', { method: 'POST', body: input }),
    [adminKeys.patterns],
  );

export const useSetPatternActive = () =>
  useAdminMutation(
    ({ id, isActive }: { id: string; isActive: boolean }) =>
      apiFetch<AdminModerationPattern>(`/api/admin/patterns/${id}`, { method: 'PATCH', body: { isActive } }),
    [adminKeys.patterns],
  );

export const useContactMessages = (filter: AdminTableFilter<'open' | 'handled'>) =>
  useInfiniteQuery(
    adminPagesOptions<ContactMessagesPage>(adminKeys.contactMessages, '/api/admin/contact-messages', filter),
  );

export const useMarkContactMessage = () =>
  useAdminMutation(
    ({ id, handled }: { id: string; handled: boolean }) =>
      apiFetch<AdminContactMessage>(`/api/admin/contact-messages/${id}/handled`, { method: 'POST', body: { handled } }),
    [adminKeys.contactMessages],
  );
