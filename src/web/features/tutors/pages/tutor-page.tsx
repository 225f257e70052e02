import { format } from 'date-fns';
import { CircleAlert, MessageSquare, RotateCw, Send, UserX } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { paths } from '#shared/paths.ts';
import { reviewMessages, type TutorProfile } from '#shared/schemas/reviews.ts';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardHeader } from '#web/components/ui/card.tsx';
import { Container } from '#web/components/ui/container.tsx';
import { EmptyState } from '#web/components/ui/empty-state.tsx';
import { QueryError } from '#web/components/ui/query-error.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { StarRating } from '#web/components/ui/star-rating.tsx';
import { ApiError, errorMessage } from '#web/lib/api.ts';
import { useSession } from '#web/lib/auth-client.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { useTutorProfile, useTutorReviews } from '../api.ts';
import { ReviewCard } from '../components/review-card.tsx';
import { SaveTutorButton } from '../components/save-tutor-button.tsx';
import { TutorProfileDetails } from '#shared/ui/tutor-profile-details.tsx';

function TutorSummary({
  tutor,
  isOwnPage,
  isStudent,
}: {
  tutor: TutorProfile;
  isOwnPage: boolean;
  isStudent: boolean;
}) {
  return (
    <Card className="gap-4 px-5 sm:px-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:flex-wrap sm:items-center">
        <Avatar name={tutor.username} src={tutor.image} className="size-20 text-2xl" />
        <div className="flex min-w-0 flex-1 flex-col gap-1 sm:min-w-64">
          <h1 className="truncate text-2xl font-bold tracking-tight">{tutor.username}</h1>
          {tutor.headline && <p className="break-words text-muted-foreground">{tutor.headline}</p>}
          <p className="text-sm text-muted-foreground">
            {tutor.vhNumber !== null && `VH number ${String(tutor.vhNumber).padStart(3, '0')} · `}Member since{' '}
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
          <div className="flex flex-wrap items-center gap-2 self-start sm:self-center">
            {isStudent && tutor.specializations.length > 0 && (
              <Button asChild>
                <Link to={paths.student.askTutor.getHref(tutor.id)}>
                  <Send aria-hidden="true" />
                  Ask {tutor.username} for help
                </Link>
              </Button>
            )}
            <Button asChild variant="outline">
              <Link to={paths.chat.getHref(tutor.id)}>
                <MessageSquare aria-hidden="true" />
                Chat
              </Link>
            </Button>
            <SaveTutorButton tutorId={tutor.id} tutorName={tutor.username} />
          </div>
        )}
      </div>
      <TutorProfileDetails tutor={tutor} subject={(name) => <Badge variant="info">{name}</Badge>} />
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
          <QueryError title="Could not load the reviews" query={reviews} />
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
          <TutorSummary tutor={tutor.data} isOwnPage={isOwnPage} isStudent={user?.role === 'student'} />
          <TutorReviews tutorId={tutorId} isOwnPage={isOwnPage} />
        </>
      )}
    </Container>
  );
}
