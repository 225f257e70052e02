import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Toaster } from '#web/components/ui/toaster.tsx';
import { listenToAuthChangesInOtherTabs } from '#web/lib/auth-client.ts';
import { queryClient } from '#web/lib/query-client.ts';

export function AppProviders({ children }: { children: ReactNode }) {
  useEffect(() => listenToAuthChangesInOtherTabs(), []);
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster />
    </QueryClientProvider>
  );
}
