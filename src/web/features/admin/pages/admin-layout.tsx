import {
  BarChart3,
  Filter,
  Flag,
  KeyRound,
  LayoutDashboard,
  Mail,
  ScrollText,
  ShieldAlert,
  UserX,
  Users,
  Wallet,
} from 'lucide-react';
import type { ComponentType } from 'react';
import { Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { SUPER_ADMIN_ROLE, type AdminPermission } from '#shared/constants.ts';
import { adminMessages } from '#shared/schemas/admin.ts';
import { paths } from '#shared/paths.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Container } from '#web/components/ui/container.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useSession } from '#web/lib/auth-client.ts';
import { usePaymentsShown } from '#web/lib/settings.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { cn } from '#web/lib/utils.ts';
import { useAdminAccess } from '../api.ts';
import { AdminLoginForm } from '../components/admin-login-form.tsx';

const menu: {
  label: string;
  href: string;
  /** The permission the page needs, the super-admin for pages only they use, none for every admin's own. */
  permission?: AdminPermission | typeof SUPER_ADMIN_ROLE;
  icon: ComponentType<{ className?: string }>;
  /** Left out of the menu on a site that takes no payments (PAYMENTS_PROVIDER=none). */
  paymentsOnly?: boolean;
}[] = [
  { label: 'Dashboard', href: paths.admin.dashboard.getHref(), permission: 'dashboard', icon: LayoutDashboard },
  { label: 'Report Management', href: paths.admin.reports.getHref(), permission: 'reports', icon: Flag },
  {
    label: 'Illegal Content',
    href: paths.admin.illegalContent.getHref(),
    permission: 'content',
    icon: ShieldAlert,
  },
  { label: 'Meeting Stats', href: paths.admin.meetingStats.getHref(), permission: 'meetings', icon: BarChart3 },
  { label: 'Sub-Admin Management', href: paths.admin.subAdmins.getHref(), permission: SUPER_ADMIN_ROLE, icon: Users },
  { label: 'Moderation Patterns', href: paths.admin.patterns.getHref(), permission: 'patterns', icon: Filter },
  { label: 'Contact Messages', href: paths.admin.contactMessages.getHref(), permission: 'messages', icon: Mail },
  {
    label: 'Account Deletions',
    href: paths.admin.accountDeletions.getHref(),
    permission: 'users',
    icon: UserX,
  },
  { label: 'Payments', href: paths.admin.payments.getHref(), permission: 'payments', icon: Wallet, paymentsOnly: true },
  { label: 'Audit Log', href: paths.admin.auditLog.getHref(), permission: SUPER_ADMIN_ROLE, icon: ScrollText },
  { label: 'Two-Factor Sign-In', href: paths.admin.security.getHref(), icon: KeyRound },
];

/** The permission of the page at `pathname`: a menu page's, or users for a user's page (none for other paths). */
function permissionOf(pathname: string): AdminPermission | typeof SUPER_ADMIN_ROLE | undefined {
  if (pathname.startsWith('/admin/users/')) return 'users';
  return menu.find((item) => item.href === pathname)?.permission;
}

/**
 * The admin area: the Admin Login form until the server confirms an admin role, then the side menu and the page. An
 * admin who must set up a second factor first (the super-admin) sees only its page, as the server answers nothing
 * else until then.
 */
export function AdminLayout() {
  const { isSignedIn, isPending: isSessionPending } = useSession();
  const access = useAdminAccess(isSignedIn);
  const { pathname } = useLocation();
  const paymentsShown = usePaymentsShown();

  if (isSessionPending || (isSignedIn && access.isPending)) {
    return (
      <Container className="flex flex-1 items-center justify-center py-20">
        <Spinner className="size-6" label="Checking admin access…" />
      </Container>
    );
  }
  if (access.isError) {
    return (
      <Container className="py-10">
        <Alert variant="destructive" role="alert" title={adminMessages.checkFailed} />
      </Container>
    );
  }
  if (!isSignedIn || !access.data) return <AdminLoginScreen />;

  const { isSuperAdmin, permissions, twoFactorEnabled, twoFactorRequired } = access.data;
  const mustEnrol = twoFactorRequired && !twoFactorEnabled;
  const securityPage = paths.admin.security.getHref();
  if (mustEnrol && pathname !== securityPage) return <Navigate to={securityPage} replace />;
  const mayOpen = (permission: AdminPermission | typeof SUPER_ADMIN_ROLE | undefined) =>
    !permission || isSuperAdmin || (permission !== SUPER_ADMIN_ROLE && permissions.includes(permission));
  const allowed = menu.filter(
    ({ permission, paymentsOnly }) => mayOpen(permission) && (paymentsShown || !paymentsOnly),
  );
  return (
    <Container className="flex flex-1 flex-col gap-6 py-6 md:flex-row md:py-10">
      {/* Left out, not replaced, so the page beside it keeps its state when enrolment ends. */}
      {!mustEnrol && (
        <nav aria-label="Admin" className="md:w-56 md:shrink-0">
          <ul className="-mx-4 flex gap-1 overflow-x-auto px-4 pb-1 md:mx-0 md:flex-col md:overflow-visible md:px-0">
            {allowed.map(({ label, href, icon: Icon }) => (
              <li key={href} className="shrink-0">
                <NavLink
                  to={href}
                  end
                  className={({ isActive }) =>
                    cn(
                      'flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                      isActive && 'bg-primary-soft text-primary-soft-foreground hover:bg-primary-soft',
                    )
                  }
                >
                  <Icon className="size-4" aria-hidden="true" />
                  {label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <div className="min-w-0 flex-1">
        {/* The server refuses the page's calls too; this says so instead of a failed fetch. */}
        {!mayOpen(permissionOf(pathname)) ? (
          <Alert variant="destructive" role="alert" title={adminMessages.missingPermission} />
        ) : (
          <Outlet />
        )}
      </div>
    </Container>
  );
}

function AdminLoginScreen() {
  useDocumentTitle('Admin Login');
  return (
    <Container className="flex flex-1 items-center justify-center py-12 sm:py-20">
      <AdminLoginForm />
    </Container>
  );
}
