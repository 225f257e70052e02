import { Skeleton } from './skeleton.tsx';
import { cn } from '#web/lib/utils.ts';

/** Three grey cards where a list of cards will be, announced to screen readers by `label`. */
export function CardListSkeleton({ label, cardClassName }: { label: string; cardClassName: string }) {
  return (
    <div className="flex flex-col gap-3">
      <span role="status" className="sr-only">
        {label}
      </span>
      {[0, 1, 2].map((key) => (
        <Skeleton key={key} className={cn('w-full rounded-xl', cardClassName)} />
      ))}
    </div>
  );
}
