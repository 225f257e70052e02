import { and, desc, eq, isNull } from 'drizzle-orm';
import { Star } from 'lucide-react';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { z } from 'zod';
import { REVIEW } from '#shared/constants.ts';
import { paths } from '#shared/paths.ts';
import type { TutorProfile } from '#shared/schemas/reviews.ts';
import { TutorProfileDetails } from '#shared/ui/tutor-profile-details.tsx';
import type { Executor } from '../../db/client.ts';
import { tutoringRequests } from '../../db/schema/requests.ts';
import { reviews } from '../../db/schema/reviews.ts';
import { subjects } from '../../db/schema/subjects.ts';
import { AppError } from '../../http/errors.ts';
import { getTutorProfile } from './profile.ts';
import { publicPageHead } from './public-page-head.ts';

// A tutor's page as a visitor who is not signed in gets it: HTML rendered by the server at each request, whole
// (no script), in the page template the web build wrote (top bar and footer), so that it paints at once and search
// engines read it. React renders it to static markup, which escapes every text the tutor wrote. The classes are the
// web app's (the stylesheet's build reads this file too: src/web/app/styles.css), and the facts, subjects and about
// text are the app's own parts (#shared/ui). Signed-in users get the app's page.

export type PublicPage = { status: 200 | 404; title: string; head: string; body: string };

/** A review as a visitor sees it: the reviewer is "Student" (students can be 13), never a name or VH number. */
type PublicReview = {
  id: string;
  rating: number;
  body: string | null;
  reply: string | null;
  subjectName: string;
  createdAt: Date;
};

const monthYear = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const card = 'flex flex-col gap-4 rounded-xl border bg-card px-5 py-6 text-card-foreground shadow-sm sm:px-6';

/** The newest visible reviews of the tutor, without their authors. */
function latestReviews(db: Executor, tutorId: string): Promise<PublicReview[]> {
  return db
    .select({
      id: reviews.id,
      rating: reviews.rating,
      body: reviews.body,
      reply: reviews.reply,
      subjectName: subjects.name,
      createdAt: reviews.createdAt,
    })
    .from(reviews)
    .innerJoin(tutoringRequests, eq(tutoringRequests.id, reviews.requestId))
    .innerJoin(subjects, eq(subjects.id, tutoringRequests.subjectId))
    .where(and(eq(reviews.tutorId, tutorId), isNull(reviews.hiddenAt)))
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(REVIEW.pageSize);
}

function Stars({ value, size }: { value: number; size: string }) {
  return (
    <span role="img" aria-label={`Rated ${value} out of 5`} className="inline-flex text-amber-500">
      {[1, 2, 3, 4, 5].map((star) => (
        <Star key={star} aria-hidden="true" className={`${size} ${star <= Math.round(value) ? 'fill-current' : ''}`} />
      ))}
    </span>
  );
}

function Page({ children }: { children: ReactNode }) {
  return <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8 sm:px-6 lg:px-8">{children}</div>;
}

function TutorProfilePage({ tutor, latest }: { tutor: TutorProfile; latest: PublicReview[] }) {
  const initial = tutor.username.trim().charAt(0).toUpperCase() || '?';
  return (
    <Page>
      <section aria-labelledby="tutor-name" className={card}>
        <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
          <span
            aria-hidden="true"
            data-initial={tutor.image ? undefined : initial}
            className="relative inline-flex size-20 shrink-0 items-center justify-center overflow-hidden rounded-full bg-primary-soft text-2xl font-semibold text-primary-soft-foreground before:content-[attr(data-initial)]"
          >
            {tutor.image && <img src={tutor.image} alt="" width={80} height={80} className="size-full object-cover" />}
          </span>
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            <h1 id="tutor-name" className="truncate text-2xl font-bold tracking-tight">
              {tutor.username}
            </h1>
            {tutor.headline && <p className="break-words text-muted-foreground">{tutor.headline}</p>}
            <p className="text-sm text-muted-foreground">
              Tutor · Member since {monthYear.format(new Date(tutor.memberSince))}
            </p>
            {tutor.ratingAverage !== null && (
              <p className="flex items-center gap-2 text-sm">
                <Stars value={tutor.ratingAverage} size="size-4" />
                <span className="font-medium">{tutor.ratingAverage.toFixed(1)}</span>
                <span className="text-muted-foreground">
                  ({tutor.reviewCount} {tutor.reviewCount === 1 ? 'review' : 'reviews'})
                </span>
              </p>
            )}
          </div>
          <a
            href={paths.auth.register.getHref('student')}
            className="inline-flex h-11 shrink-0 items-center justify-center self-start rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground shadow-sm transition-colors outline-none hover:bg-primary-hover focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:self-center md:h-10"
          >
            Sign up to ask {tutor.username}
          </a>
        </div>
        <TutorProfileDetails
          tutor={tutor}
          subject={(name) => (
            <span className="inline-flex w-fit items-center rounded-full border border-sky-200 bg-sky-50 px-2.5 py-0.5 text-xs font-medium whitespace-nowrap text-sky-800 dark:border-sky-900 dark:bg-sky-950 dark:text-sky-300">
              {name}
            </span>
          )}
        />
      </section>
      <section aria-labelledby="reviews-heading" className={card}>
        <h2 id="reviews-heading" className="text-lg font-semibold">
          Reviews
        </h2>
        {latest.length === 0 ? (
          <p className="py-4 text-center text-sm text-muted-foreground">No reviews yet.</p>
        ) : (
          <ul aria-labelledby="reviews-heading">
            {latest.map((review) => (
              <li key={review.id} className="flex flex-col gap-2 border-b py-4 last:border-b-0">
                <p className="text-sm">
                  <span className="font-medium">Student</span>
                  <span className="text-muted-foreground">
                    {' '}
                    · {review.subjectName} · {day.format(review.createdAt)}
                  </span>
                </p>
                <Stars value={review.rating} size="size-4" />
                {review.body && <p className="text-sm break-words whitespace-pre-line">{review.body}</p>}
                {review.reply && (
                  <div className="rounded-lg bg-muted px-3 py-2 text-sm">
                    <p className="font-medium">Reply from {tutor.username}</p>
                    <p className="break-words whitespace-pre-line">{review.reply}</p>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
        {tutor.reviewCount > latest.length && (
          <p className="text-sm text-muted-foreground">
            The {latest.length} newest of {tutor.reviewCount} reviews.{' '}
            <a href={paths.auth.register.getHref('student')} className="font-medium text-primary underline">
              Sign up
            </a>{' '}
            to read them all.
          </p>
        )}
      </section>
    </Page>
  );
}

function NotFoundPage() {
  return (
    <Page>
      <div className="flex flex-col items-center gap-2 py-16 text-center">
        <h1 className="text-2xl font-bold tracking-tight">Tutor not found</h1>
        <p className="text-muted-foreground">This tutor does not exist or no longer teaches on Virtual Help.</p>
        <a href={paths.tutors.getHref()} className="font-medium text-primary underline">
          Find Tutors
        </a>
      </div>
    </Page>
  );
}

const notFound = (): PublicPage => ({
  status: 404,
  title: 'Tutor not found – Virtual Help',
  head: '<meta name="robots" content="noindex">',
  body: renderToStaticMarkup(<NotFoundPage />),
});

/**
 * The page at `/tutors/{id}` for a visitor: a tutor visible to visitors (not hidden, suspended or gone), else the 404
 * page. Only what the visitor's API answer holds is shown (never the e-mail or VH number), and reviews by "Student".
 */
export async function renderPublicTutorPage({
  db,
  publicUrl,
  tutorId,
}: {
  db: Executor;
  publicUrl: string;
  tutorId: string;
}): Promise<PublicPage> {
  if (!z.uuid().safeParse(tutorId).success) return notFound();
  let tutor: TutorProfile;
  try {
    tutor = await getTutorProfile({ db, tutorId, isSignedIn: false });
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return notFound();
    throw error;
  }
  const latest = await latestReviews(db, tutorId);
  return {
    status: 200,
    ...publicPageHead({ tutor, publicUrl }),
    body: renderToStaticMarkup(<TutorProfilePage tutor={tutor} latest={latest} />),
  };
}

/** How to render the visitor's page at a tutor's address (`/tutors/{id}`); undefined for any other path. */
export function publicPageAt({ db, publicUrl, pagePath }: { db: Executor; publicUrl: string; pagePath: string }) {
  const tutorId = /^\/tutors\/([^/]+)$/.exec(pagePath)?.[1];
  return tutorId === undefined ? undefined : () => renderPublicTutorPage({ db, publicUrl, tutorId });
}
