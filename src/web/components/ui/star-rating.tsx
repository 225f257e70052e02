import { Star } from 'lucide-react';
import { RadioGroup as RadioGroupPrimitive } from 'radix-ui';
import { cn } from '#web/lib/utils.ts';

const STARS = [1, 2, 3, 4, 5] as const;
const starsLabel = (count: number) => `${count} ${count === 1 ? 'star' : 'stars'}`;

/**
 * Choosing 1 to 5 stars: a radio group, so arrow keys move between the stars with one Tab stop, and a screen reader
 * reads "4 stars, radio, 4 of 5".
 */
export function StarRatingInput({
  value,
  onChange,
  label,
  invalid,
  describedBy,
}: {
  value: number | null;
  onChange: (value: number) => void;
  label: string;
  invalid?: boolean;
  describedBy?: string | undefined;
}) {
  return (
    <RadioGroupPrimitive.Root
      aria-label={label}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
      orientation="horizontal"
      value={value === null ? '' : String(value)}
      onValueChange={(next) => onChange(Number(next))}
      className="flex gap-1"
    >
      {STARS.map((star) => (
        <RadioGroupPrimitive.Item
          key={star}
          value={String(star)}
          aria-label={starsLabel(star)}
          className="rounded-md p-1 text-amber-500 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          <Star aria-hidden="true" className={cn('size-7', value !== null && star <= value && 'fill-current')} />
        </RadioGroupPrimitive.Item>
      ))}
    </RadioGroupPrimitive.Root>
  );
}

/** Read-only stars for an average or one review's rating, read out as "Rated 4.5 out of 5". */
export function StarRating({ value, className }: { value: number; className?: string }) {
  return (
    <span role="img" aria-label={`Rated ${value} out of 5`} className={cn('inline-flex text-amber-500', className)}>
      {STARS.map((star) => (
        <Star key={star} aria-hidden="true" className={cn('size-4', star <= Math.round(value) && 'fill-current')} />
      ))}
    </span>
  );
}
