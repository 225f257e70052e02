import { Star } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '#shared/paths.ts';
import type { TutorTrust } from '#shared/schemas/reviews.ts';
import { cn } from '#web/lib/utils.ts';

/** "★ 4.8 (12) · 5 jobs completed", linking to the tutor's public page (offer cards, search results, chat header). */
export function TutorTrustLink({
  tutorId,
  trust,
  className,
}: {
  tutorId: string;
  trust: TutorTrust;
  className?: string;
}) {
  const jobs = `${trust.jobsCompleted} ${trust.jobsCompleted === 1 ? 'job' : 'jobs'} completed`;
  return (
    <Link
      to={paths.tutor.getHref(tutorId)}
      className={cn(
        'inline-flex flex-wrap items-center gap-x-1 text-sm text-muted-foreground underline-offset-4 hover:text-foreground hover:underline',
        className,
      )}
    >
      {trust.ratingAverage === null ? (
        <span>No reviews yet</span>
      ) : (
        <span className="inline-flex items-center gap-1">
          <Star aria-hidden="true" className="size-4 fill-amber-500 text-amber-500" />
          <span className="font-medium text-foreground">{trust.ratingAverage.toFixed(1)}</span>
          <span>
            ({trust.reviewCount} {trust.reviewCount === 1 ? 'review' : 'reviews'})
          </span>
        </span>
      )}
      <span aria-hidden="true">·</span>
      <span>{jobs}</span>
      <span className="sr-only">, view profile</span>
    </Link>
  );
}
