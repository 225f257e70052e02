import { BriefcaseBusiness, Clock } from 'lucide-react';
import { Link } from 'react-router';
import { useSession } from '#web/lib/auth-client.ts';
import { paths } from '#shared/paths.ts';
import { formatCents } from '#shared/rules/money.ts';
import type { TutorCard as TutorCardData } from '#shared/schemas/directory.ts';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { StarRating } from '#web/components/ui/star-rating.tsx';
import { formatResponseTime } from '#shared/rules/response-time.ts';
import { SaveTutorButton } from './save-tutor-button.tsx';

/** How many subjects a card names before "+n more". */
const SUBJECTS_SHOWN = 4;

/** One tutor in Find Tutors: the whole card opens their page through the name's link. */
export function TutorCard({ tutor }: { tutor: TutorCardData }) {
  // A visitor's tutor page is the server's (whole, without the app's sign-in guard): a page load, not a route change.
  const { isSignedIn } = useSession();
  const hidden = tutor.subjects.length - SUBJECTS_SHOWN;
  return (
    <article className="@container relative flex w-full flex-col gap-3 rounded-xl border bg-card p-4 text-card-foreground shadow-xs transition-colors focus-within:ring-[3px] focus-within:ring-ring/50 hover:border-primary/60 sm:p-5">
      {/* A narrow card (a phone, or two cards side by side) puts the rate under the name and gives the headline the
          card's whole width, so neither is cut after a few words; a wide one has the rate on the right. */}
      <div className="grid grid-cols-[auto_minmax(0,1fr)_auto] items-start gap-x-3 gap-y-1 @md:grid-cols-[auto_minmax(0,1fr)_auto_auto]">
        <Avatar name={tutor.username} src={tutor.image} className="row-span-2 size-14 text-lg" />
        <h2 className="col-start-2 line-clamp-2 text-lg leading-snug font-semibold [overflow-wrap:anywhere]">
          <Link
            to={paths.tutor.getHref(tutor.id)}
            reloadDocument={!isSignedIn}
            className="outline-none after:absolute after:inset-0 after:content-['']"
          >
            {tutor.username}
          </Link>
        </h2>
        {tutor.headline && (
          <p className="col-span-3 row-start-3 line-clamp-3 text-sm [overflow-wrap:anywhere] text-muted-foreground @md:col-span-1 @md:col-start-2 @md:row-start-2 @md:line-clamp-2">
            {tutor.headline}
          </p>
        )}
        <p className="col-start-2 row-start-2 @md:col-start-3 @md:row-start-1 @md:text-right">
          {tutor.hourlyRateCents === null ? (
            <span className="text-sm text-muted-foreground">No rate set</span>
          ) : (
            <>
              <span className="text-lg font-semibold">{formatCents(tutor.hourlyRateCents)}</span>
              <span className="text-sm text-muted-foreground">/hour</span>
            </>
          )}
        </p>
        <SaveTutorButton
          tutorId={tutor.id}
          tutorName={tutor.username}
          className="col-start-3 row-start-1 @md:col-start-4"
        />
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
