/** The bell's count shows "99+" above this (SPEC.md §9). */
export const NOTIFICATION_BADGE_MAX = 99;

export const badgeText = (count: number) =>
  count > NOTIFICATION_BADGE_MAX ? `${NOTIFICATION_BADGE_MAX}+` : String(count);
