// Plain joins, not cn(): the lists hold no conflicting classes, and cn() at load would set up tailwind-merge while
// the app's code is still being evaluated, in the same long task.

/** The top bar's links: in the bar on wide screens, and in the small-screen menu. */
export const desktopLinkClasses = [
  'inline-flex h-10 items-center rounded-md px-3 text-sm font-medium text-muted-foreground transition-colors',
  'hover:bg-accent hover:text-accent-foreground',
  'aria-[current=page]:bg-primary-soft aria-[current=page]:text-primary-soft-foreground',
].join(' ');

export const mobileLinkClasses = [
  'flex min-h-12 items-center rounded-md px-3 text-base font-medium transition-colors',
  'hover:bg-accent hover:text-accent-foreground',
  'aria-[current=page]:bg-primary-soft aria-[current=page]:text-primary-soft-foreground',
].join(' ');
