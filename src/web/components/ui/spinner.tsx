import { LoaderCircle } from 'lucide-react';
import { cn } from '#web/lib/utils.ts';

type SpinnerProps = {
  className?: string;
  /** Read to screen readers; without it the spinner is decorative (e.g. inside a busy button). */
  label?: string;
};

export function Spinner({ className, label }: SpinnerProps) {
  if (!label) return <LoaderCircle aria-hidden="true" className={cn('size-4 animate-spin', className)} />;
  return (
    <span role="status" className="inline-flex items-center">
      <LoaderCircle aria-hidden="true" className={cn('size-4 animate-spin', className)} />
      <span className="sr-only">{label}</span>
    </span>
  );
}
