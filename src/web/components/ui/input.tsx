import type { ComponentProps } from 'react';
import { cn } from '#web/lib/utils.ts';

// A plain join, not cn(): no conflicting classes, and no tailwind-merge set-up while the app's code is evaluated.
export const controlClasses = [
  'w-full min-w-0 rounded-md border border-input bg-background px-3 text-base shadow-xs md:text-sm',
  'placeholder:text-muted-foreground transition-[border-color,box-shadow]',
  'focus-visible:border-ring focus-visible:outline-offset-1',
  'disabled:cursor-not-allowed disabled:opacity-60',
  'aria-invalid:border-error aria-invalid:focus-visible:outline-error',
].join(' ');

export function Input({ className, type = 'text', ...props }: ComponentProps<'input'>) {
  return (
    <input
      data-slot="input"
      type={type}
      className={cn(
        controlClasses,
        'h-11 py-2 md:h-10',
        'file:mr-3 file:border-0 file:bg-transparent file:text-sm file:font-medium file:text-foreground',
        className,
      )}
      {...props}
    />
  );
}
