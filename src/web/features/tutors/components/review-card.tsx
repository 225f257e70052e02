import { format } from 'date-fns';
import { useState } from 'react';
import { toast } from '#web/lib/toast.ts';
import type { Review } from '#shared/schemas/reviews.ts';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { StarRating } from '#web/components/ui/star-rating.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { useRespondToReview } from '../api.ts';

const formatDay = (value: string) => format(new Date(value), 'MMM d, yyyy');

const responses = {
  reply: { open: 'Reply', label: 'Your public reply', submit: 'Post reply', done: 'Reply posted' },
  report: { open: 'Report', label: 'What is wrong with this review?', submit: 'Send report', done: 'Review reported' },
} as const;

/** The tutor's reply (once, public) or report (once, to the admins) of a review of them. */
function ReviewResponse({ review, kind, onDone }: { review: Review; kind: 'reply' | 'report'; onDone: () => void }) {
  const [text, setText] = useState('');
  const respond = useRespondToReview();
  const texts = responses[kind];
  return (
    <form
      className="flex flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        respond.mutate(
          { reviewId: review.id, kind, text },
          {
            onSuccess: () => {
              toast.success(texts.done);
              onDone();
            },
            onError: (error) => toast.error(errorMessage(error)),
          },
        );
      }}
    >
      <FormField label={texts.label}>
        <Textarea value={text} onChange={(event) => setText(event.target.value)} maxLength={1000} rows={3} />
      </FormField>
      <div className="flex gap-2">
        <Button type="submit" size="sm" loading={respond.isPending} disabled={!text.trim()}>
          {texts.submit}
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** One review: stars, author, text and the tutor's reply; the reviewed tutor may reply and report here. */
export function ReviewCard({ review, isOwnPage }: { review: Review; isOwnPage: boolean }) {
  const [responding, setResponding] = useState<'reply' | 'report' | null>(null);
  return (
    <li
      className="flex flex-col gap-2 border-b py-4 last:border-b-0"
      aria-label={`Review by ${review.author.username}`}
    >
      <div className="flex flex-wrap items-center gap-3">
        <Avatar name={review.author.username} src={review.author.image} className="size-8" />
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium">{review.author.username}</p>
          <p className="text-xs text-muted-foreground">
            {review.subjectName} · {formatDay(review.createdAt)}
          </p>
        </div>
        <StarRating value={review.rating} />
      </div>
      {review.body && <p className="text-sm break-words whitespace-pre-line">{review.body}</p>}
      {review.reply && (
        <div className="ml-4 rounded-lg border-l-4 border-primary/40 bg-muted/50 px-3 py-2 text-sm">
          <p className="font-medium">Tutor&apos;s reply</p>
          <p className="break-words whitespace-pre-line">{review.reply}</p>
        </div>
      )}
      {isOwnPage &&
        (responding ? (
          <ReviewResponse review={review} kind={responding} onDone={() => setResponding(null)} />
        ) : (
          <div className="flex flex-wrap items-center gap-2">
            {!review.reply && (
              <Button size="sm" variant="outline" onClick={() => setResponding('reply')}>
                {responses.reply.open}
              </Button>
            )}
            {review.isReported ? (
              <Badge variant="neutral">Reported</Badge>
            ) : (
              <Button size="sm" variant="ghost" onClick={() => setResponding('report')}>
                {responses.report.open}
              </Button>
            )}
          </div>
        ))}
    </li>
  );
}
