import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from './api.ts';
import { useHydrated } from './use-hydrated.ts';
import type { PublicSettings } from '#shared/public-settings.ts';

/** Shown when the server cannot be asked (same defaults as the server's configuration). */
const fallbackSettings: PublicSettings = {
  supportPhone: '+41 41 000 00 00',
  supportEmail: 'support@virtualhelp.example',
  whatsappNumber: '41410000000',
  jitsiDomain: 'meet.jit.si',
};

export const publicSettingsQueryOptions = queryOptions({
  queryKey: ['settings', 'public'],
  queryFn: ({ signal }) => apiFetch<PublicSettings>('/api/settings/public', { signal }),
  staleTime: Infinity,
});

/**
 * Support contact details. `isPending` while the first answer is awaited (and while a prerendered page hydrates);
 * fallbacks if it fails.
 */
export function usePublicSettings() {
  const query = useQuery(publicSettingsQueryOptions);
  const hydrated = useHydrated();
  const settings = hydrated ? query.data : undefined;
  return { settings: settings ?? fallbackSettings, isPending: !hydrated || query.isPending };
}
