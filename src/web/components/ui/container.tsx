import type { ComponentProps } from 'react';
import { cn } from '#web/lib/utils.ts';

/** The page width and side padding shared by the top bar, pages and footer. */
export function Container({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div data-slot="container" className={cn('mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8', className)} {...props} />
  );
}
