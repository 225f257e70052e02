import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { listenToAuthChangesInOtherTabs } from '#web/lib/auth-client.ts';
import { queryClient } from '#web/lib/query-client.ts';
import { useHydrated } from '#web/lib/use-hydrated.ts';

// Notices follow a user's action: the notification area's code loads after the first paint, not before it.
const Toaster = lazy(async () => ({ default: (await import('#web/components/ui/toaster.tsx')).Toaster }));

export function AppProviders({ children }: { children: ReactNode }) {
  useEffect(() => listenToAuthChangesInOtherTabs(), []);
  // Not in the prerendered HTML: the notification area takes the browser's colour scheme, and a page without scripts
  // has nothing to show a notice with.
  const hydrated = useHydrated();
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      {hydrated && (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      )}
    </QueryClientProvider>
  );
}
