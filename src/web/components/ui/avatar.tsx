import { useState } from 'react';
import { cn } from '#web/lib/utils.ts';

type AvatarProps = {
  name: string;
  src?: string | null | undefined;
  className?: string;
};

/** A round picture, or the name's first letter when there is none (or it fails to load). Decorative. */
export function Avatar({ name, src, className }: AvatarProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const showImage = Boolean(src) && failedSrc !== src;
  const initial = name.trim().charAt(0).toUpperCase() || '?';
  return (
    <span
      aria-hidden="true"
      data-slot="avatar"
      className={cn(
        'relative inline-flex size-8 shrink-0 items-center justify-center overflow-hidden rounded-full bg-primary-soft text-sm font-semibold text-primary-soft-foreground',
        className,
      )}
    >
      {showImage ? (
        <img
          src={src ?? undefined}
          alt=""
          className="size-full object-cover"
          onError={() => setFailedSrc(src ?? null)}
        />
      ) : (
        initial
      )}
    </span>
  );
}
