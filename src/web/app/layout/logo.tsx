import { cn } from '#web/lib/utils.ts';

/** The brand mark (the favicon's "V") and the product name. */
export function Logo({ className }: { className?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-2 text-lg font-bold tracking-tight', className)}>
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8 shrink-0">
        <rect width="32" height="32" rx="8" className="fill-primary" />
        <path d="M9 9.5h3.2l3.8 10.4 3.8-10.4H23l-5.4 13.5h-3.2z" className="fill-primary-foreground" />
      </svg>
      <span>Virtual Help</span>
    </span>
  );
}
