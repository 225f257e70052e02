import { CloudOff, ShieldX } from 'lucide-react';
import { use } from 'react';
import { Link, Navigate, Outlet, useLocation, useMatches, useSearchParams } from 'react-router';
import type { Role } from '#shared/constants.ts';
import { Button } from '#web/components/ui/button.tsx';
import { StatusPage } from '#web/components/ui/status-page.tsx';
import { useSession } from '#web/lib/auth-client.ts';
import { usePublicSettings } from '#web/lib/settings.ts';
import { NotFoundPage } from '#web/features/pages/pages/not-found-page.tsx';
import { signInDestination } from '#web/lib/redirect.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { CONNECTION_ERROR_MESSAGE } from '#web/page-contract/connection-error.ts';
import { PageFallback } from './page-fallback.tsx';
import { FrameRoleContext, frameFor, type RouteHandle } from './route-handle.ts';
import { paths } from '#shared/paths.ts';

const refusals: Record<Role, { title: string; text: string }> = {
  teacher: {
    title: 'This page is for teachers',
    text: 'You are signed in with a student account, so this page is not available to you. Teachers use it to find jobs and students. You can keep chatting with your tutors, post requests and look at the offers you received.',
  },
  student: {
    title: 'This page is for students',
    text: 'You are signed in with a teacher account, so this page is not available to you. Students use it to post their requests and compare offers. You can find open requests in your subjects under Find Jobs.',
  },
};

/** Shown in place of a page that belongs to the other role: says why, and where to go instead. */
function RoleRefusal({ role }: { role: Role }) {
  const { title, text } = refusals[role];
  useDocumentTitle(title);
  return (
    <StatusPage
      icon={<ShieldX />}
      tone="warning"
      title={title}
      actions={
        <>
          <Button asChild>
            <Link to={paths.chat.getHref()}>Go to Chat</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to={paths.home.getHref()}>Go to Home</Link>
          </Button>
        </>
      }
    >
      {text}
    </StatusPage>
  );
}

/** While the session is checked: the page's frame, when it has one, else the page area loading. */
function PageWhileSessionChecked() {
  const role = use(FrameRoleContext);
  const frame = useMatches()
    .map(({ handle }) => (handle as RouteHandle | undefined)?.frame)
    .findLast(Boolean);
  return (frame && frameFor(frame, role)) || <PageFallback />;
}

/**
 * Layout route for pages that need a signed-in user (optionally of one role). Signed out: to the
 * sign-in page, which brings the user back here afterwards. Wrong role: a clear refusal.
 */
export function RequireAuth({ role }: { role?: Role }) {
  const { user, isPending } = useSession();
  const location = useLocation();
  if (isPending) return <PageWhileSessionChecked />;
  if (!user) {
    return <Navigate to={paths.auth.login.getHref(`${location.pathname}${location.search}`)} replace />;
  }
  if (role && user.role !== role) return <RoleRefusal role={role} />;
  return <Outlet />;
}

/**
 * Layout route for the screens of paying and earning: under PAYMENTS_PROVIDER=none the site takes no money, so they
 * do not exist there, even when their address is typed.
 */
export function RequirePayments() {
  const { settings, isPending, isError, refetch } = usePublicSettings();
  if (isPending) return <PageFallback />;
  // Unanswered, the site may well take payments: say so rather than call the page missing.
  if (isError) return <SettingsUnavailable onRetry={() => void refetch()} />;
  return settings.payments ? <Outlet /> : <NotFoundPage />;
}

function SettingsUnavailable({ onRetry }: { onRetry: () => void }) {
  useDocumentTitle('Page not loaded');
  return (
    <StatusPage
      icon={<CloudOff />}
      tone="danger"
      title="Page not loaded"
      actions={<Button onClick={onRetry}>Try again</Button>}
    >
      {CONNECTION_ERROR_MESSAGE}
    </StatusPage>
  );
}

/**
 * Layout route for the sign-in and registration pages: a signed-in user goes on to where they were headed. The
 * form shows while the session is checked (the prerendered page paints it at once; almost everyone here is
 * signed out).
 */
export function RedirectIfSignedIn() {
  const { user } = useSession();
  const [searchParams] = useSearchParams();
  if (user) {
    return <Navigate to={signInDestination(searchParams.get('redirectTo'))} replace />;
  }
  return <Outlet />;
}
