import { RadioGroup as RadioGroupPrimitive } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from '#web/lib/utils.ts';

/** Arrow keys move between the items; one Tab stop for the whole group. */
export function RadioGroup({ className, ...props }: ComponentProps<typeof RadioGroupPrimitive.Root>) {
  return <RadioGroupPrimitive.Root data-slot="radio-group" className={cn('grid gap-3', className)} {...props} />;
}

export function RadioGroupItem({ className, ...props }: ComponentProps<typeof RadioGroupPrimitive.Item>) {
  return (
    <RadioGroupPrimitive.Item
      data-slot="radio-group-item"
      className={cn(
        'peer relative aspect-square size-5 shrink-0 cursor-pointer rounded-full border border-input bg-background shadow-xs transition-colors md:size-4',
        // A 44 px hit area on touch screens without changing the drawn size.
        "before:absolute before:-inset-3 before:content-[''] md:before:-inset-1.5",
        'data-[state=checked]:border-primary disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-error',
        className,
      )}
      {...props}
    >
      <RadioGroupPrimitive.Indicator
        data-slot="radio-group-indicator"
        className="flex items-center justify-center after:block after:size-2.5 after:rounded-full after:bg-primary after:content-[''] md:after:size-2"
      />
    </RadioGroupPrimitive.Item>
  );
}
