import { cn } from '#web/lib/utils.ts';

/** The top bar's links: in the bar on wide screens, and in the small-screen menu. */
export const desktopLinkClasses = cn(
  'inline-flex h-10 items-center rounded-md px-3 text-sm font-medium text-muted-foreground transition-colors',
  'hover:bg-accent hover:text-accent-foreground',
  'aria-[current=page]:bg-primary-soft aria-[current=page]:text-primary-soft-foreground',
);

export const mobileLinkClasses = cn(
  'flex min-h-12 items-center rounded-md px-3 text-base font-medium transition-colors',
  'hover:bg-accent hover:text-accent-foreground',
  'aria-[current=page]:bg-primary-soft aria-[current=page]:text-primary-soft-foreground',
);
