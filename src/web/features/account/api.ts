import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ChangeEmailInput,
  ChangePasswordInput,
  DataExportView,
  DeviceList,
  LatestDataExport,
} from '#shared/schemas/account.ts';
import { paths } from '#shared/paths.ts';
import { apiFetch } from '#web/lib/api.ts';
import type { AccountDeletionView, DeleteAccountInput } from '#shared/schemas/account-deletion.ts';
import { forgetSignedInUser, notifyAuthChanged, replacingSession } from '#web/lib/auth-client.ts';

const devicesQueryKey = ['account', 'devices'] as const;

const devicesQueryOptions = queryOptions({
  queryKey: devicesQueryKey,
  queryFn: ({ signal }) => apiFetch<DeviceList>('/api/account/devices', { signal }),
});

export function useDevices() {
  return useQuery(devicesQueryOptions);
}

export function useSignOutDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) =>
      apiFetch<null>(`/api/account/devices/${encodeURIComponent(sessionId)}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: devicesQueryKey }),
  });
}

export function useSignOutOtherDevices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<{ signedOut: number }>('/api/account/devices/sign-out-others', { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: devicesQueryKey }),
  });
}

export function useRequestEmailChange() {
  return useMutation({
    mutationFn: (input: ChangeEmailInput) => apiFetch<null>('/api/account/email', { method: 'POST', body: input }),
  });
}

/**
 * Changing the password ends every session of the account, this tab's included, and answers with the one that
 * replaces it: marked so, the tab does not sign itself out when its old session's socket hears that it ended.
 */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ChangePasswordInput) =>
      replacingSession(apiFetch<unknown>('/api/auth/change-password', { method: 'POST', body: input })),
    onSuccess: async () => {
      await notifyAuthChanged();
      await queryClient.invalidateQueries({ queryKey: devicesQueryKey });
    },
  });
}

const latestExportQueryKey = ['account', 'exports', 'latest'] as const;
const EXPORT_POLL_MS = 3_000;

/** The newest export; asked again every few seconds while it is being built. */
export function useLatestDataExport() {
  return useQuery({
    queryKey: latestExportQueryKey,
    queryFn: ({ signal }) => apiFetch<LatestDataExport>('/api/account/exports/latest', { signal }),
    refetchInterval: (query) => (query.state.data?.export?.status === 'building' ? EXPORT_POLL_MS : false),
  });
}

export function useRequestDataExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<DataExportView>('/api/account/exports', { method: 'POST' }),
    onSuccess: (started) => queryClient.setQueryData(latestExportQueryKey, { export: started }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: latestExportQueryKey }),
  });
}

export const dataExportDownloadUrl = (exportId: string) =>
  `/api/account/exports/${encodeURIComponent(exportId)}/download`;

/**
 * Deleting the account ends every session, this tab's too: what was cached for the user is forgotten, and the sign-in
 * page is loaded afresh with the note on how to restore the account (whichever guard redirect the ended session set off).
 */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: (input: DeleteAccountInput) =>
      replacingSession(apiFetch<AccountDeletionView>('/api/account/deletion', { method: 'POST', body: input })),
    onSuccess: async () => {
      await forgetSignedInUser();
      window.location.assign(`${paths.auth.login.path}?accountDeleted=1`);
    },
  });
}
