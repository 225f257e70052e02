import { Sparkles } from 'lucide-react';
import { cn } from '#web/lib/utils.ts';

/** Guru AI's own face: the assistant has no picture (SPEC.md §3), so it gets a mark no person can have. Decorative. */
export function GuruAvatar({ className }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      data-slot="avatar"
      className={cn(
        'inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-violet-500 to-sky-500 text-white',
        className,
      )}
    >
      <Sparkles className="size-1/2" />
    </span>
  );
}
