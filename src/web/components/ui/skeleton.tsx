import type { ComponentProps } from 'react';
import { cn } from '#web/lib/utils.ts';

/** A grey placeholder of the size of what is loading (decorative: say "loading" elsewhere). */
export function Skeleton({ className, ...props }: ComponentProps<'span'>) {
  return (
    <span
      data-slot="skeleton"
      aria-hidden="true"
      className={cn('block animate-pulse rounded-md bg-muted', className)}
      {...props}
    />
  );
}
