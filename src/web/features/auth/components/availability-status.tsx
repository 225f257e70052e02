import { CircleAlert, CircleCheck, CircleX } from 'lucide-react';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { cn } from '#web/lib/utils.ts';
import type { AvailabilityState } from './use-availability.ts';

type AvailabilityStatusProps = {
  state: AvailabilityState;
  message: string | null;
  className?: string;
};

const stateClasses: Record<AvailabilityState, string> = {
  idle: '',
  checking: 'text-muted-foreground',
  available: 'text-emerald-700 dark:text-emerald-400',
  unavailable: 'text-error',
  error: 'text-error',
};

/** The result of a live availability check. Always in the page, so screen readers hear each change. */
export function AvailabilityStatus({ state, message, className }: AvailabilityStatusProps) {
  return (
    <p
      aria-live="polite"
      data-state={state}
      className={cn('flex items-center gap-1.5 text-sm font-medium', stateClasses[state], className)}
    >
      {state === 'checking' && <Spinner className="size-3.5" />}
      {state === 'available' && <CircleCheck aria-hidden="true" className="size-4 shrink-0" />}
      {state === 'unavailable' && <CircleX aria-hidden="true" className="size-4 shrink-0" />}
      {state === 'error' && <CircleAlert aria-hidden="true" className="size-4 shrink-0" />}
      {message}
    </p>
  );
}
