import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from './api.ts';
import { settingsMetaName, type PublicSettings } from '#shared/public-settings.ts';

/** Shown when the server cannot be asked (same defaults as the server's configuration). */
const fallbackSettings: PublicSettings = {
  supportPhone: '+41 41 000 00 00',
  supportEmail: 'support@virtualhelp.example',
  whatsappNumber: '41410000000',
  jitsiDomain: 'meet.jit.si',
  // Until the server says it takes payments, nothing speaks of them: a site free of charge never shows them at all.
  payments: false,
  releaseAfterDays: 7,
  commissionPercent: 15,
};

export const publicSettingsQueryOptions = queryOptions({
  queryKey: ['settings', 'public'],
  queryFn: ({ signal }) => apiFetch<PublicSettings>('/api/settings/public', { signal }),
  staleTime: Infinity,
});

/**
 * Support contact details. `isPending` while the first answer is awaited, `isError` once it failed (a page's frame rendered at build time shows
 * it so); fallbacks if it fails. A whole page starts from the settings the server filled into it (settingsInPage).
 */
export function usePublicSettings() {
  const query = useQuery(publicSettingsQueryOptions);
  return {
    settings: query.data ?? fallbackSettings,
    isPending: query.isPending,
    isError: query.isError,
    refetch: query.refetch,
  };
}

/** Whether money moves through the site: under PAYMENTS_PROVIDER=none no screen speaks of paying, earning or refunds. */
export const usePaymentsShown = () => usePublicSettings().settings.payments;

/** The settings the server filled into a whole page's head (settingsMetaTags), for the app that hydrates it. */
export function settingsInPage(): PublicSettings {
  const read = (key: keyof PublicSettings) =>
    document.querySelector<HTMLMetaElement>(`meta[name="${settingsMetaName(key)}"]`)?.content ??
    String(fallbackSettings[key]);
  return {
    supportPhone: read('supportPhone'),
    supportEmail: read('supportEmail'),
    whatsappNumber: read('whatsappNumber'),
    jitsiDomain: read('jitsiDomain'),
    payments: read('payments') === 'true',
    releaseAfterDays: Number(read('releaseAfterDays')),
    commissionPercent: Number(read('commissionPercent')),
  };
}
