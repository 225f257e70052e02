import './app/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers.tsx';
import { router } from './app/router.tsx';
import { sessionQueryOptions } from './lib/auth-client.ts';
import { queryClient } from './lib/query-client.ts';
import { publicSettingsQueryOptions } from './lib/settings.ts';

// Ask for the session and contact details while the first page's code is still downloading.
queryClient.query(sessionQueryOptions).catch(() => undefined);
queryClient.query(publicSettingsQueryOptions).catch(() => undefined);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
