import { BriefcaseBusiness, Clock } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '#shared/paths.ts';
import { formatCents } from '#shared/rules/money.ts';
import type { TutorCard as TutorCardData } from '#shared/schemas/directory.ts';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { StarRating } from '#web/components/ui/star-rating.tsx';
import { formatResponseTime } from '../response-time.ts';

/** How many subjects a card names before "+n more". */
const SUBJECTS_SHOWN = 4;

/** One tutor in Find Tutors: the whole card opens their page through the name's link. */
export function TutorCard({ tutor }: { tutor: TutorCardData }) {
  const hidden = tutor.subjects.length - SUBJECTS_SHOWN;
  return (
    <article className="relative flex w-full flex-col gap-3 rounded-xl border bg-card p-4 text-card-foreground shadow-xs transition-colors focus-within:ring-[3px] focus-within:ring-ring/50 hover:border-primary/60 sm:p-5">
      <div className="flex items-start gap-3">
        <Avatar name={tutor.username} src={tutor.image} className="size-14 text-lg" />
        <div className="flex min-w-0 flex-1 flex-col gap-0.5">
          <h2 className="truncate text-lg leading-snug font-semibold">
            <Link
              to={paths.tutor.getHref(tutor.id)}
              className="outline-none after:absolute after:inset-0 after:content-['']"
            >
              {tutor.username}
            </Link>
          </h2>
          {tutor.headline && (
            <p className="line-clamp-2 text-sm [overflow-wrap:anywhere] text-muted-foreground">{tutor.headline}</p>
          )}
        </div>
        <p className="shrink-0 text-right">
          {tutor.hourlyRateCents === null ? (
            <span className="text-sm text-muted-foreground">No rate set</span>
          ) : (
            <>
              <span className="text-lg font-semibold">{formatCents(tutor.hourlyRateCents)}</span>
              <span className="text-sm text-muted-foreground">/hour</span>
            </>
          )}
        </p>
      </div>
      {tutor.subjects.length > 0 && (
        <ul aria-label="Subjects" className="flex flex-wrap gap-1.5">
          {tutor.subjects.slice(0, SUBJECTS_SHOWN).map((subject) => (
            <li key={subject}>
              <Badge variant="secondary">{subject}</Badge>
            </li>
          ))}
          {hidden > 0 && (
            <li>
              <Badge variant="outline">+{hidden} more</Badge>
            </li>
          )}
        </ul>
      )}
      <dl className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
        <div className="flex items-center gap-1.5">
          <dt className="sr-only">Rating</dt>
          <dd className="flex items-center gap-1.5">
            {tutor.ratingAverage === null ? (
              <span className="text-muted-foreground">No reviews yet</span>
            ) : (
              <>
                <StarRating value={tutor.ratingAverage} />
                <span className="font-medium">{tutor.ratingAverage.toFixed(1)}</span>
                <span className="text-muted-foreground">
                  ({tutor.reviewCount} {tutor.reviewCount === 1 ? 'review' : 'reviews'})
                </span>
              </>
            )}
          </dd>
        </div>
        <div className="flex items-center gap-1.5 text-muted-foreground">
          <BriefcaseBusiness aria-hidden="true" className="size-4" />
          <dt className="sr-only">Jobs completed</dt>
          <dd>
            {tutor.jobsCompleted} {tutor.jobsCompleted === 1 ? 'job' : 'jobs'} completed
          </dd>
        </div>
        {tutor.responseMinutes !== null && (
          <div className="flex items-center gap-1.5 text-muted-foreground">
            <Clock aria-hidden="true" className="size-4" />
            <dt className="sr-only">Typical response time</dt>
            <dd>Usually answers within {formatResponseTime(tutor.responseMinutes)}</dd>
          </div>
        )}
      </dl>
    </article>
  );
}
