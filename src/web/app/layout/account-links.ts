import { Bell, Heart, ReceiptText, Settings, UserRound, Wallet, type LucideIcon } from 'lucide-react';
import type { Role } from '#shared/constants.ts';
import { paths } from '#shared/paths.ts';

type AccountLink = { label: string; href: string; icon: LucideIcon };

/**
 * The links of a signed-in user's own menu, in its order: the desktop user menu and the phone menu list the same.
 * Earnings and Payments only where the operator takes payments.
 */
export function getAccountLinks(role: Role, paymentsShown: boolean): AccountLink[] {
  const links: Array<AccountLink | false> = [
    { label: 'Profile', href: paths.profile.getHref(), icon: UserRound },
    role === 'student' && { label: 'Saved tutors', href: paths.savedTutors.getHref(), icon: Heart },
    { label: 'Account settings', href: paths.settings.account.getHref(), icon: Settings },
    { label: 'Notification settings', href: paths.settings.notifications.getHref(), icon: Bell },
    role === 'teacher' && paymentsShown && { label: 'Earnings', href: paths.earnings.getHref(), icon: Wallet },
    role === 'student' && paymentsShown && { label: 'Payments', href: paths.payments.getHref(), icon: ReceiptText },
  ];
  return links.filter((link) => link !== false);
}
