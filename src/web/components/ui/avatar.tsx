import { useState } from 'react';
import { cn } from '#web/lib/utils.ts';

type AvatarProps = {
  name: string;
  src?: string | null | undefined;
  className?: string;
};

/**
 * A round picture, or the name's first letter when there is none (or it fails to load). Decorative: the letter is
 * drawn by CSS, not written into the page, so that a button showing an avatar and a name is labelled by the name alone
 * (WCAG 2.5.3, label in name: "U" + "user7" would otherwise read as the visible label "Uuser7").
 */
export function Avatar({ name, src, className }: AvatarProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const showImage = Boolean(src) && failedSrc !== src;
  const initial = name.trim().charAt(0).toUpperCase() || '?';
  return (
    <span
      aria-hidden="true"
      data-slot="avatar"
      data-initial={showImage ? undefined : initial}
      className={cn(
        'before:content-[attr(data-initial)]',
        'relative inline-flex size-8 shrink-0 items-center justify-center overflow-hidden rounded-full bg-primary-soft text-sm font-semibold text-primary-soft-foreground',
        className,
      )}
    >
      {showImage && (
        <img
          src={src ?? undefined}
          alt=""
          className="size-full object-cover"
          onError={() => setFailedSrc(src ?? null)}
        />
      )}
    </span>
  );
}
