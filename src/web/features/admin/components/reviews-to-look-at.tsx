import { differenceInCalendarDays } from 'date-fns';
import { REVIEWS_TO_LOOK_AT } from '#shared/constants.ts';
import { formatCents } from '#shared/rules/money.ts';
import { adminMessages } from '#shared/schemas/admin.ts';
import type { ReviewToLookAt } from '#shared/schemas/reviews.ts';
import { Button } from '#web/components/ui/button.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { toast } from '#web/lib/toast.ts';
import { useLookAtReview, useReviewsToLookAt } from '../api.ts';
import { adminDateTime } from './admin-format.tsx';
import { AdminTable, pagedRows, type AdminColumn } from './admin-table.tsx';
import { UserLink } from './user-link.tsx';

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

/** One account of the pair: its age when the review was written, and what it has done on the site. */
function Account({
  account,
  reviewedAt,
  reviewsLabel,
}: {
  account: ReviewToLookAt['student'];
  reviewedAt: string;
  reviewsLabel: string;
}) {
  const ageDays = differenceInCalendarDays(new Date(reviewedAt), new Date(account.createdAt));
  return (
    <span className="flex flex-col gap-0.5">
      <UserLink user={account} fallback="Deleted account" />
      <span className="text-muted-foreground">
        {ageDays < REVIEWS_TO_LOOK_AT.accountDays ? (
          <strong className="font-medium text-foreground">{plural(ageDays, 'day')} old</strong>
        ) : (
          `${plural(ageDays, 'day')} old`
        )}{' '}
        when reviewing
      </span>
      <span className="text-muted-foreground">
        {plural(account.jobs, 'paid job')}, {formatCents(account.paidCents)} paid, {account.reviews} {reviewsLabel}
      </span>
    </span>
  );
}

const columns: AdminColumn<ReviewToLookAt>[] = [
  {
    header: 'Student',
    cell: (review) => <Account account={review.student} reviewedAt={review.createdAt} reviewsLabel="reviews given" />,
  },
  {
    header: 'Tutor',
    cell: (review) => <Account account={review.tutor} reviewedAt={review.createdAt} reviewsLabel="reviews received" />,
  },
  {
    header: 'Review',
    cell: (review) => (
      <span className="flex flex-col gap-0.5">
        <span>
          {review.rating} / 5{review.body ? `: ${review.body}` : ''}
        </span>
        <span className="text-muted-foreground">
          {review.subjectName}; {plural(review.pairJobs, 'paid job')} together in {REVIEWS_TO_LOOK_AT.windowDays} days
          {review.hiddenAt ? '; hidden' : ''}
        </span>
      </span>
    ),
  },
  { header: 'Written At', cell: (review) => adminDateTime(review.createdAt) },
];

/**
 * Reviews of a pair where an account is young and the two had several paid jobs lately: published, and listed here
 * until an admin has looked at them (hiding one is Reported reviews' action, for a review its tutor reported).
 */
export function ReviewsToLookAt() {
  const reviews = useReviewsToLookAt();
  const lookAt = useLookAtReview();
  return (
    <section aria-labelledby="reviews-to-look-at" className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <h2 id="reviews-to-look-at" className="text-lg font-semibold">
          Reviews to look at
        </h2>
        <p className="text-sm text-muted-foreground">
          Published reviews where the student or the tutor had an account younger than {REVIEWS_TO_LOOK_AT.accountDays}{' '}
          days and the two had {REVIEWS_TO_LOOK_AT.pairJobs} or more paid jobs together within{' '}
          {REVIEWS_TO_LOOK_AT.windowDays} days.
        </p>
      </div>
      <AdminTable
        caption="Reviews to look at"
        columns={columns}
        data={pagedRows(reviews)}
        rowKey={(review) => review.id}
        errorMessage={adminMessages.reviewsToLookAtFailed}
        emptyMessage="No reviews to look at"
        actions={(review) => (
          <Button
            size="sm"
            variant="outline"
            loading={lookAt.isPending && lookAt.variables === review.id}
            aria-label={`Looked at ${review.student.username}'s review of ${review.tutor.username}`}
            onClick={() =>
              lookAt.mutate(review.id, {
                onSuccess: () => toast.success('Review looked at'),
                onError: (error) => toast.error(errorMessage(error)),
              })
            }
          >
            Looked at
          </Button>
        )}
      />
    </section>
  );
}
