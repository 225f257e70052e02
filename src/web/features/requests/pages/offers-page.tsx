import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, FileQuestion, MessageSquare, Star, Users } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { formatBudget } from '#shared/rules/budget.ts';
import { formatCents } from '#shared/rules/money.ts';
import { isRequestExpired } from '#shared/rules/expiry.ts';
import type { RequestStatus } from '#shared/constants.ts';
import type { Offer, RequestCard, RequestDetail } from '#shared/schemas/requests.ts';
import { paths } from '#shared/paths.ts';
import { TutorTrustLink } from '#web/components/tutor-trust.tsx';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { Container } from '#web/components/ui/container.tsx';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#web/components/ui/dialog.tsx';
import { EmptyState } from '#web/components/ui/empty-state.tsx';
import { QueryError } from '#web/components/ui/query-error.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { ApiError, errorMessage } from '#web/lib/api.ts';
import { useSocketEvent } from '#web/lib/socket.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { cn } from '#web/lib/utils.ts';
import { requestsKeys, useAcceptBid, useCompleteJob, useOffers, useRequestDetail } from '../api.ts';
import {
  Fact,
  formatDate,
  formatDateTime,
  RequestStatusBadge,
  requestTypeTitles,
} from '../components/request-display.tsx';
import { UserHeader } from '../components/user-header.tsx';
import { AskAgainLink, DirectRequestPanel } from '../components/direct-request-panel.tsx';

const REDIRECT_AFTER_ACCEPT_MS = 1500;

function RequestSummary({
  request,
  notifiedCount,
  offers,
}: {
  request: RequestCard;
  notifiedCount: number;
  offers: RequestDetail['offers'];
}) {
  return (
    <Card className="gap-3 px-5">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">{requestTypeTitles[request.type]}</h1>
          <p className="text-sm text-muted-foreground">
            {request.subjectName} · Posted {formatDateTime(request.createdAt)}
          </p>
        </div>
        <RequestStatusBadge status={request.status} openSince={request.openSince} />
      </div>
      <p className="text-sm break-words whitespace-pre-line">{request.description}</p>
      <dl className="flex flex-wrap gap-x-5 gap-y-1 text-sm text-muted-foreground">
        <Fact label="Budget:" emphasis>
          {formatBudget({ minCents: request.budgetMinCents, maxCents: request.budgetMaxCents })}
        </Fact>
        {request.deadline && <Fact label="Deadline:">{formatDate(request.deadline)}</Fact>}
        <div className="flex items-center gap-1">
          <dt>
            <Users aria-hidden="true" className="size-4" />
            <span className="sr-only">Reach</span>
          </dt>
          <dd>
            {notifiedCount} {notifiedCount === 1 ? 'tutor' : 'tutors'} notified
          </dd>
        </div>
        {offers.lowestCents !== null && offers.highestCents !== null && (
          <div className="flex gap-1">
            <dt>Offers so far:</dt>
            <dd className="font-medium text-foreground">
              {offers.lowestCents === offers.highestCents
                ? formatCents(offers.lowestCents)
                : `${formatCents(offers.lowestCents)} to ${formatCents(offers.highestCents)}`}
            </dd>
          </div>
        )}
      </dl>
    </Card>
  );
}

/** The link to rate the tutor in the chat, where the rating form is. `takeFocus`: it replaced the button just pressed. */
function RateInChatLink({ tutorId, takeFocus }: { tutorId: string; takeFocus: boolean }) {
  const link = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (takeFocus) link.current?.focus();
  }, [takeFocus]);
  return (
    <Button asChild size="sm">
      <Link ref={link} to={paths.chat.getHref(tutorId)}>
        <Star aria-hidden="true" />
        Rate in chat
      </Link>
    </Button>
  );
}

/**
 * The student's step of an accepted job: "Mark as completed" while it is in progress, then a link to rate the tutor.
 * Once the student marks it completed here, the link that replaces the button takes focus, rather than letting it fall
 * to the top of the page.
 */
function JobCompletion({
  requestId,
  status,
  tutorId,
  tutorName,
  subjectId,
}: {
  requestId: string;
  status: RequestStatus;
  tutorId: string;
  tutorName: string;
  subjectId: string;
}) {
  const complete = useCompleteJob();
  const [isRateLinkFocused, setRateLinkFocused] = useState(false);
  if (status === 'completed') {
    return (
      <div className="flex flex-wrap gap-2">
        <RateInChatLink tutorId={tutorId} takeFocus={isRateLinkFocused} />
        <AskAgainLink tutorId={tutorId} tutorName={tutorName} subjectId={subjectId} />
      </div>
    );
  }
  if (status !== 'accepted') return null;
  return (
    <Button
      size="sm"
      variant="outline"
      loading={complete.isPending}
      onClick={() =>
        complete.mutate(requestId, {
          onSuccess: () => {
            toast.success('Job marked as completed', { description: 'You can now rate your tutor in the chat.' });
            setRateLinkFocused(true);
          },
          onError: (error) => toast.error(errorMessage(error)),
        })
      }
    >
      <CheckCircle2 aria-hidden="true" />
      Mark as completed
    </Button>
  );
}

function OfferCard({
  offer,
  canAccept,
  onAccept,
  completion,
}: {
  offer: Offer;
  canAccept: boolean;
  onAccept: () => void;
  /** The accepted offer's step of the job: "Mark as completed", then "Rate in chat". */
  completion?: ReactNode;
}) {
  const isAccepted = offer.status === 'accepted';
  return (
    <li>
      <Card
        className={cn(
          'gap-3 px-5',
          isAccepted && 'border-emerald-400 bg-emerald-50 dark:border-emerald-800 dark:bg-emerald-950',
        )}
        data-accepted={isAccepted || undefined}
        aria-label={`Offer from ${offer.username}`}
        role="article"
      >
        <div className="flex flex-wrap items-center gap-3">
          <Avatar name={offer.username} src={offer.image} className="size-10" />
          <div className="min-w-0 flex-1">
            <p className="truncate font-medium">{offer.username}</p>
            <p className="text-sm text-muted-foreground">VH number: {String(offer.vhNumber).padStart(3, '0')}</p>
            <TutorTrustLink tutorId={offer.tutorId} trust={offer} />
          </div>
          <div className="text-right">
            <p className="text-lg font-semibold">{formatCents(offer.amountCents)}</p>
            <p className="text-xs text-muted-foreground">{formatDate(offer.createdAt)}</p>
          </div>
        </div>
        {isAccepted && (
          <Badge variant="success" className="self-start">
            Accepted
          </Badge>
        )}
        {offer.message && <p className="text-sm break-words whitespace-pre-line">{offer.message}</p>}
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline" size="sm">
            <Link to={paths.chat.getHref(offer.tutorId)}>
              <MessageSquare aria-hidden="true" />
              Chat
            </Link>
          </Button>
          {canAccept && (
            <Button size="sm" onClick={onAccept}>
              Accept Offer
            </Button>
          )}
          {isAccepted && completion}
        </div>
      </Card>
    </li>
  );
}

export function OffersPage() {
  const { requestId = '' } = useParams();
  useDocumentTitle('Tutor Offers');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const detail = useRequestDetail(requestId);
  const offers = useOffers(requestId, { enabled: detail.isSuccess });
  const accept = useAcceptBid();
  const [confirming, setConfirming] = useState<Offer | null>(null);
  const redirectTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(redirectTimer.current), []);

  useSocketEvent('notification:new', (payload) => {
    if (payload.requestId !== requestId) return;
    void queryClient.invalidateQueries({ queryKey: requestsKeys.detail(requestId) });
    void queryClient.invalidateQueries({ queryKey: requestsKeys.offers(requestId) });
  });

  const back = <UserHeader backTo={paths.student.posts.getHref()} backLabel="Back to My Requests" />;

  if (detail.isPending) {
    return (
      <Container className="flex max-w-3xl flex-col gap-6 py-8">
        {back}
        <span role="status" className="sr-only">
          Loading request
        </span>
        <Skeleton className="h-40 w-full rounded-xl" />
        <Skeleton className="h-28 w-full rounded-xl" />
      </Container>
    );
  }

  if (detail.isError) {
    const isNotFound = detail.error instanceof ApiError && (detail.error.status === 404 || detail.error.status === 400);
    return (
      <Container className="flex max-w-3xl flex-col gap-6 py-8">
        {back}
        {isNotFound ? (
          <EmptyState
            icon={<FileQuestion />}
            headingLevel="h1"
            title="Request not found"
            description="The request you're looking for doesn't exist or has been removed."
            action={
              <Button asChild>
                <Link to={paths.student.posts.getHref()}>View My Requests</Link>
              </Button>
            }
          />
        ) : (
          <QueryError title="Error fetching requests" query={detail} />
        )}
      </Container>
    );
  }

  const { request, notifiedCount } = detail.data;
  const canAccept =
    (request.status === 'open' || request.status === 'pending') &&
    !isRequestExpired(request.openSince) &&
    !request.acceptedBidId;
  const list = offers.data ?? [];

  const confirmAccept = (offer: Offer) => {
    accept.mutate(
      { requestId, bidId: offer.id },
      {
        onSuccess: (accepted) => {
          setConfirming(null);
          // A payment provider makes the accept a checkout: the offer is accepted once it is paid.
          if (accepted.outcome === 'checkout') return void navigate(paths.checkout.getHref(accepted.checkoutId));
          toast.success('Bid Accepted!', {
            description: 'You have accepted this bid. The tutor has been notified and a chat room has been created.',
          });
          redirectTimer.current = window.setTimeout(
            () => void navigate(paths.chat.getHref(accepted.tutorId)),
            REDIRECT_AFTER_ACCEPT_MS,
          );
        },
        onError: (error) => {
          setConfirming(null);
          const isConflict = error instanceof ApiError && error.status === 409;
          toast.error(isConflict ? 'This request is no longer open' : 'Error accepting bid', {
            description: errorMessage(error),
          });
        },
      },
    );
  };

  return (
    <Container className="flex max-w-3xl flex-col gap-6 py-8">
      {back}
      <RequestSummary request={request} notifiedCount={notifiedCount} offers={detail.data.offers} />
      <DirectRequestPanel request={request} />
      <section aria-labelledby="offers-heading" className="flex flex-col gap-3">
        <h2 id="offers-heading" className="text-xl font-semibold">
          Tutor Offers ({offers.data ? list.length : detail.data.offers.count})
        </h2>
        {offers.isPending ? (
          <Skeleton className="h-28 w-full rounded-xl" />
        ) : offers.isError ? (
          <QueryError title="Could not load the offers" query={offers} />
        ) : list.length === 0 ? (
          <EmptyState
            headingLevel="h3"
            title="No offers yet"
            description="Tutors are still reviewing your request. Check back soon for offers."
          />
        ) : (
          <ul className="flex flex-col gap-3">
            {list.map((offer) => (
              <OfferCard
                key={offer.id}
                offer={offer}
                canAccept={canAccept}
                onAccept={() => setConfirming(offer)}
                completion={
                  <JobCompletion
                    requestId={requestId}
                    status={request.status}
                    tutorId={offer.tutorId}
                    tutorName={offer.username}
                    subjectId={request.subjectId}
                  />
                }
              />
            ))}
          </ul>
        )}
      </section>

      <Dialog open={confirming !== null} onOpenChange={(open) => !open && !accept.isPending && setConfirming(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Accept this offer?</DialogTitle>
            <DialogDescription>
              {confirming &&
                `You are accepting ${confirming.username}'s offer of ${formatCents(confirming.amountCents)}. Other tutors can no longer be chosen for this request.`}
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline" disabled={accept.isPending}>
                Cancel
              </Button>
            </DialogClose>
            <Button loading={accept.isPending} onClick={() => confirming && confirmAccept(confirming)}>
              Accept Offer
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Container>
  );
}
