import { format } from 'date-fns';
import { CircleAlert, MessageSquare, RotateCw, UserX } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { paths } from '#shared/paths.ts';
import { reviewMessages, type TutorProfile } from '#shared/schemas/reviews.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardHeader } from '#web/components/ui/card.tsx';
import { Container } from '#web/components/ui/container.tsx';
import { EmptyState } from '#web/components/ui/empty-state.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { StarRating } from '#web/components/ui/star-rating.tsx';
import { ApiError, errorMessage } from '#web/lib/api.ts';
import { useSession } from '#web/lib/auth-client.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { useTutorProfile, useTutorReviews } from '../api.ts';
import { ReviewCard } from '../components/review-card.tsx';
import { formatResponseTime } from '../response-time.ts';

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-col rounded-lg border px-3 py-2">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="font-semibold">{value}</dd>
    </div>
  );
}

function TutorSummary({ tutor, isOwnPage }: { tutor: TutorProfile; isOwnPage: boolean }) {
  return (
    <Card className="gap-4 px-5 sm:px-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        <Avatar name={tutor.username} src={tutor.image} className="size-20 text-2xl" />
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <h1 className="truncate text-2xl font-bold tracking-tight">{tutor.username}</h1>
          {tutor.headline && <p className="break-words text-muted-foreground">{tutor.headline}</p>}
          <p className="text-sm text-muted-foreground">
            VH number {String(tutor.vhNumber).padStart(3, '0')} · Member since{' '}
            {format(new Date(tutor.memberSince), 'MMMM yyyy')}
          </p>
          {tutor.ratingAverage !== null && (
            <p className="flex items-center gap-2 text-sm">
              <StarRating value={tutor.ratingAverage} />
              <span className="font-medium">{tutor.ratingAverage.toFixed(1)}</span>
              <span className="text-muted-foreground">
                ({tutor.reviewCount} {tutor.reviewCount === 1 ? 'review' : 'reviews'})
              </span>
            </p>
          )}
        </div>
        {!isOwnPage && (
          <Button asChild variant="outline" className="self-start sm:self-center">
            <Link to={paths.chat.getHref(tutor.id)}>
              <MessageSquare aria-hidden="true" />
              Chat
            </Link>
          </Button>
        )}
      </div>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        <Fact label="Jobs completed" value={String(tutor.jobsCompleted)} />
        <Fact
          label="Average rating"
          value={tutor.ratingAverage === null ? '–' : `${tutor.ratingAverage.toFixed(1)} / 5 (${tutor.reviewCount})`}
        />
        <Fact
          label="Usually answers within"
          value={tutor.medianFirstResponseMinutes === null ? '–' : formatResponseTime(tutor.medianFirstResponseMinutes)}
        />
      </dl>
      {tutor.specializations.length > 0 && (
        <ul aria-label="Subjects" className="flex flex-wrap gap-2">
          {tutor.specializations.map((subject) => (
            <li key={subject.id}>
              <Badge variant="info">{subject.name}</Badge>
            </li>
          ))}
        </ul>
      )}
      {tutor.about && (
        <section aria-labelledby="about-heading" className="flex flex-col gap-1">
          <h2 id="about-heading" className="font-semibold">
            About
          </h2>
          <p className="text-sm break-words whitespace-pre-line">{tutor.about}</p>
        </section>
      )}
    </Card>
  );
}

function TutorReviews({ tutorId, isOwnPage }: { tutorId: string; isOwnPage: boolean }) {
  const reviews = useTutorReviews(tutorId);
  const list = reviews.data?.pages.flatMap((page) => page.reviews) ?? [];
  return (
    <Card>
      <CardHeader>
        <h2 id="reviews-heading" className="text-lg font-semibold">
          Reviews
        </h2>
      </CardHeader>
      <CardContent>
        {reviews.isPending ? (
          <div className="flex flex-col gap-3">
            <span role="status" className="sr-only">
              Loading reviews
            </span>
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-16 w-full" />
          </div>
        ) : reviews.isError ? (
          <Alert variant="destructive" icon={<CircleAlert aria-hidden="true" />} title="Could not load the reviews">
            <p>{errorMessage(reviews.error)}</p>
            <Button variant="outline" size="sm" className="mt-2" onClick={() => void reviews.refetch()}>
              <RotateCw aria-hidden="true" />
              Try again
            </Button>
          </Alert>
        ) : list.length === 0 ? (
          <EmptyState headingLevel="h3" title={reviewMessages.noReviews} className="py-8" />
        ) : (
          <>
            <ul aria-labelledby="reviews-heading">
              {list.map((review) => (
                <ReviewCard key={review.id} review={review} isOwnPage={isOwnPage} />
              ))}
            </ul>
            {reviews.hasNextPage && (
              <Button
                variant="outline"
                className="mt-3 w-full"
                loading={reviews.isFetchingNextPage}
                onClick={() => void reviews.fetchNextPage()}
              >
                Show more reviews
              </Button>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

export function TutorPage() {
  const { tutorId = '' } = useParams();
  const { user } = useSession();
  const tutor = useTutorProfile(tutorId);
  useDocumentTitle(tutor.data ? `${tutor.data.username} – Tutor` : 'Tutor');
  const isOwnPage = user?.id === tutorId;

  return (
    <Container className="flex max-w-3xl flex-col gap-6 py-8">
      {tutor.isPending ? (
        <>
          <span role="status" className="sr-only">
            Loading the tutor&apos;s profile
          </span>
          <Skeleton className="h-56 w-full rounded-xl" />
          <Skeleton className="h-40 w-full rounded-xl" />
        </>
      ) : tutor.isError ? (
        tutor.error instanceof ApiError && (tutor.error.status === 404 || tutor.error.status === 400) ? (
          <EmptyState
            icon={<UserX />}
            headingLevel="h1"
            title="Tutor not found"
            description="This tutor does not exist or no longer teaches on Virtual Help."
          />
        ) : (
          <EmptyState
            role="alert"
            icon={<CircleAlert />}
            headingLevel="h1"
            title="Error fetching the tutor's profile"
            description={errorMessage(tutor.error)}
            action={
              <Button onClick={() => void tutor.refetch()} loading={tutor.isRefetching}>
                {!tutor.isRefetching && <RotateCw aria-hidden="true" />}
                Retry
              </Button>
            }
          />
        )
      ) : (
        <>
          <TutorSummary tutor={tutor.data} isOwnPage={isOwnPage} />
          <TutorReviews tutorId={tutorId} isOwnPage={isOwnPage} />
        </>
      )}
    </Container>
  );
}
