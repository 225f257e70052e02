import { Menu, X } from 'lucide-react';
import { lazy, Suspense, use, useEffect, useRef } from 'react';
import { Link, NavLink, useLocation, useNavigation } from 'react-router';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Container } from '#web/components/ui/container.tsx';
import { useSession, type SessionUser } from '#web/lib/auth-client.ts';
import { cn } from '#web/lib/utils.ts';
import { paths } from '#shared/paths.ts';
import { Logo } from './logo.tsx';
import { getNavItems } from './nav-items.ts';
import { desktopLinkClasses, mobileLinkClasses } from './nav-link-classes.ts';
import { displayName } from './display-name.ts';
import { FrameRoleContext } from '../route-handle.ts';

// The menu's Radix code is only needed once someone is signed in: keep it out of the first download.
const UserMenu = lazy(async () => ({ default: (await import('./user-menu.tsx')).UserMenu }));

// The account part of the small-screen menu signs out (and says so in a notice): loaded once someone is signed in.
const MobileAccount = lazy(async () => ({ default: (await import('./mobile-account.tsx')).MobileAccount }));

// The bell brings the popover: loaded once someone is signed in.
const NotificationBell = lazy(async () => ({
  default: (await import('#web/features/notifications/components/notification-bell.tsx')).NotificationBell,
}));

// Also named in the menu button's icon classes (`group-has-[#mobile-menu:popover-open]`), which Tailwind reads as text.
const MOBILE_MENU_ID = 'mobile-menu';

/** A thin bar under the top bar while the next page's code loads. */
function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return (
    <div aria-hidden="true" className="absolute inset-x-0 bottom-0 h-0.5 overflow-hidden">
      <div className="h-full w-1/3 animate-progress bg-primary" />
    </div>
  );
}

function SignedOutButtons({ className, onNavigate }: { className?: string; onNavigate?: () => void }) {
  return (
    <div className={cn('flex items-center gap-2', className)}>
      <Button asChild variant="outline" className="max-md:flex-1">
        <Link to={paths.auth.login.getHref()} onClick={onNavigate}>
          Log in
        </Link>
      </Button>
      <Button asChild className="max-md:flex-1">
        <Link to={paths.auth.register.getHref()} onClick={onNavigate}>
          Sign up
        </Link>
      </Button>
    </div>
  );
}

/** Looks like the user menu's button while its code loads, so the bar does not jump. */
function UserMenuPlaceholder({ user }: { user: SessionUser }) {
  const name = displayName(user);
  return (
    <span className="inline-flex h-10 items-center gap-2 px-2 text-sm font-medium">
      <Avatar name={name} src={user.image} />
      <span className="max-w-40 truncate">{name}</span>
      <span className="size-4" />
    </span>
  );
}

export function SiteHeader() {
  const { user, isPending } = useSession();
  // A page's frame rendered at build time for a role (app/route-handle.ts) has that role's menu items already, so
  // that none moves when the session arrives.
  const frameRole = use(FrameRoleContext);
  const navItems = getNavItems(user ? user.role : isPending ? frameRole : null);
  const location = useLocation();
  // The small-screen menu is a native popover: it opens, closes on Escape or a press outside, hands focus back and
  // tells assistive technology whether it is open (the button's expanded state) with no script at all, as on a
  // whole page (docs/decisions/0019-whole-content-pages.md). Its button's icon follows it in CSS.
  const menuRef = useRef<HTMLDivElement>(null);
  // It is open for one page: a route change in the app closes it.
  const route = location.pathname + location.search;
  useEffect(() => {
    if (menuRef.current?.matches(':popover-open')) menuRef.current.hidePopover();
  }, [route]);

  const closeMenu = () => menuRef.current?.hidePopover();

  return (
    <header className="group/top-bar sticky top-0 z-40 print:hidden border-b bg-background/90 backdrop-blur supports-backdrop-filter:bg-background/75">
      <Container className="flex h-16 items-center gap-4">
        <Link to={paths.home.getHref()} className="-ml-1 rounded-md px-1">
          <Logo />
        </Link>

        <nav aria-label="Main" className="hidden flex-1 md:block">
          <ul className="flex items-center gap-1">
            {navItems.map((item) => (
              <li key={item.href}>
                <NavLink to={item.href} end={item.end} className={desktopLinkClasses}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>

        {/* Fixed width while the first session check runs, so nothing jumps when the buttons appear. */}
        {/* One bell for every width: on phones it sits beside the menu button. */}
        {user && (
          <Suspense fallback={<span className="ml-auto size-11 md:size-10" />}>
            <NotificationBell className="ml-auto" />
          </Suspense>
        )}

        <div className={cn('hidden min-w-44 items-center justify-end md:flex', !user && 'ml-auto')}>
          {isPending ? null : user ? (
            <Suspense fallback={<UserMenuPlaceholder user={user} />}>
              <UserMenu user={user} />
            </Suspense>
          ) : (
            <SignedOutButtons />
          )}
        </div>

        <Button
          variant="ghost"
          size="icon"
          className={cn('md:hidden', !user && 'ml-auto')}
          popoverTarget={MOBILE_MENU_ID}
          aria-label="Menu"
        >
          <Menu aria-hidden="true" className="size-6 group-has-[#mobile-menu:popover-open]/top-bar:hidden" />
          <X aria-hidden="true" className="hidden size-6 group-has-[#mobile-menu:popover-open]/top-bar:block" />
        </Button>
      </Container>

      <div
        ref={menuRef}
        id={MOBILE_MENU_ID}
        popover="auto"
        className="inset-x-0 top-16 bottom-auto m-0 max-h-[calc(100dvh-4rem)] w-full overflow-y-auto border-0 border-t bg-background p-0 text-foreground shadow-lg md:hidden"
      >
        <Container className="flex animate-slide-down flex-col gap-4 py-4">
          <nav aria-label="Main">
            <ul className="flex flex-col gap-1">
              {navItems.map((item) => (
                <li key={item.href}>
                  <NavLink to={item.href} end={item.end} className={mobileLinkClasses} onClick={closeMenu}>
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          {!isPending && (
            <div className="border-t pt-4">
              {user ? (
                <Suspense fallback={null}>
                  <MobileAccount user={user} onNavigate={closeMenu} />
                </Suspense>
              ) : (
                <SignedOutButtons onNavigate={closeMenu} />
              )}
            </div>
          )}
        </Container>
      </div>

      <NavigationProgress />
    </header>
  );
}
