import type { ComponentProps } from 'react';
import { cn } from '#web/lib/utils.ts';
import { controlClasses } from './input.tsx';

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return (
    <textarea data-slot="textarea" className={cn(controlClasses, 'min-h-28 py-2 leading-6', className)} {...props} />
  );
}
