import { format } from 'date-fns';
import { useEffect, useState, type ReactNode } from 'react';
import { Send } from 'lucide-react';
import type { EducationLevel, RequestStatus, RequestType } from '#shared/constants.ts';
import type { RequestCard } from '#shared/schemas/requests.ts';
import { closesIn, isRequestExpired } from '#shared/rules/expiry.ts';
import { Badge, type BadgeProps } from '#web/components/ui/badge.tsx';

export const requestTypeTitles: Record<RequestType, string> = {
  tutoring: 'Tutoring Request',
  assignment: 'Assignment Help',
};

export const levelLabels: Record<EducationLevel, string> = {
  high_school: 'High school',
  undergraduate: 'Undergraduate',
  graduate: 'Graduate',
  phd: 'PhD',
};

const statusStyles: Record<RequestStatus | 'expired', { label: string; variant: BadgeProps['variant'] }> = {
  open: { label: 'Open', variant: 'success' },
  pending: { label: 'Pending', variant: 'success' },
  assigned: { label: 'Assigned', variant: 'info' },
  accepted: { label: 'Accepted', variant: 'info' },
  completed: { label: 'Completed', variant: 'neutral' },
  closed: { label: 'Closed', variant: 'warning' },
  expired: { label: 'Expired', variant: 'danger' },
};

/** SPEC.md §4 colours: open green, assigned blue, completed grey, closed orange, expired red. */
export function RequestStatusBadge({ status, openSince }: { status: RequestStatus; openSince: string }) {
  const isOpen = status === 'open' || status === 'pending';
  const key = isOpen && isRequestExpired(openSince) ? 'expired' : status;
  const style = statusStyles[key];
  return <Badge variant={style.variant}>{style.label}</Badge>;
}

/** The current time, updated every minute (countdowns). */
function useNow(intervalMs = 60_000) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

export function Countdown({ openSince }: { openSince: string }) {
  const now = useNow();
  return <span>{closesIn(openSince, now)}</span>;
}

export const formatDate = (value: string) => format(new Date(value), 'MMM d, yyyy');
export const formatDateTime = (value: string) => format(new Date(value), 'MMM d, yyyy h:mm a');
export const offersLabel = (count: number) => `${count} ${count === 1 ? 'Offer' : 'Offers'}`;

/** One labelled fact of a request card, inside its <dl>; `emphasis` for the figure that matters most (budget). */
export function Fact({ label, emphasis, children }: { label: string; emphasis?: boolean; children: ReactNode }) {
  return (
    <div className="flex gap-1">
      <dt>{label}</dt>
      <dd className={emphasis ? 'font-medium text-foreground' : undefined}>{children}</dd>
    </div>
  );
}

const directStateTexts: Record<NonNullable<RequestCard['direct']>['state'], string> = {
  waiting: 'waiting for an answer',
  declined: 'declined',
  unanswered: 'no answer within 24 hours',
  opened: 'now open to all tutors of the subject',
};

/** Who a direct request was sent to, and where that stands while the request is open. */
export function DirectRequestNote({ request }: { request: Pick<RequestCard, 'direct' | 'status'> }) {
  const { direct } = request;
  if (!direct) return null;
  const isOpen = request.status === 'open' || request.status === 'pending';
  return (
    <p className="flex items-center gap-1.5 text-sm">
      <Send aria-hidden="true" className="size-4 text-muted-foreground" />
      <span>
        Sent to <span className="font-medium">{direct.tutorName ?? 'a tutor who left'}</span>
        {isOpen && ` · ${directStateTexts[direct.state]}`}
      </span>
    </p>
  );
}
