import { Video } from 'lucide-react';
import { formatDistanceStrict } from 'date-fns';
import { useEffect, useState } from 'react';
import { toast } from '#web/lib/toast.ts';
import { MEETING_JOIN_WINDOW } from '#shared/constants.ts';
import { meetingStatus, meetingTimeLabel } from '#shared/rules/meeting-time.ts';
import type { ChatMessage } from '#shared/schemas/chat.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { useCancelMeeting, useRecordMeetingJoin } from '../api.ts';

type Meeting = NonNullable<ChatMessage['meeting']>;

/** The video service's URL with our settings: no pre-join page, chat off, the user's name filled in. */
function meetingJoinHref(joinUrl: string, displayName: string) {
  const params = [
    'config.prejoinPageEnabled=false',
    `userInfo.displayName=${encodeURIComponent(JSON.stringify(displayName))}`,
    'config.disableChat=true',
  ];
  return `${joinUrl.split('#')[0]}#${params.join('&')}`;
}

const statusBadges = {
  scheduled: { label: 'Scheduled', variant: 'info' },
  completed: { label: 'Completed', variant: 'neutral' },
  cancelled: { label: 'Cancelled', variant: 'danger' },
} as const;

/**
 * Title, status, start time in the viewer's zone, countdown ("Starts in …", then "Meeting in progress"), Join from
 * 10 min before to 10 h after; the teacher who scheduled it can cancel it until it starts.
 */
export function MeetingCard({
  meeting,
  displayName,
  userId,
}: {
  meeting: Meeting;
  displayName: string;
  userId: string;
}) {
  const cancel = useCancelMeeting();
  const recordJoin = useRecordMeetingJoin();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const start = new Date(meeting.startTime).getTime();
  const isCancelled = meeting.cancelledAt !== null;
  const canJoin =
    !isCancelled && now >= start - MEETING_JOIN_WINDOW.beforeMs && now <= start + MEETING_JOIN_WINDOW.afterMs;
  const isOver = now > start + MEETING_JOIN_WINDOW.afterMs;
  const status = isCancelled
    ? 'This meeting was cancelled'
    : now < start
      ? `Starts in ${formatDistanceStrict(start, now)}`
      : isOver
        ? 'Meeting ended'
        : 'Meeting in progress';
  const badge = statusBadges[meetingStatus(meeting, now)];
  const canCancel = !isCancelled && meeting.creatorId === userId && now < start;
  const onCancel = () => {
    if (!window.confirm(`Cancel the meeting "${meeting.title}"? The other participant will be told.`)) return;
    cancel.mutate(meeting.id, {
      onSuccess: () => toast.success('Meeting cancelled', { description: 'The other participant was notified.' }),
      onError: (error) => toast.error('Error cancelling meeting', { description: errorMessage(error) }),
    });
  };

  // The join is recorded before the meeting opens (it decides a refund for a missed session). The tab is opened at
  // once, while the click still allows it, and sent to the meeting when the server has recorded the join.
  const onJoin = () => {
    const tab = window.open('', '_blank');
    if (tab) tab.opener = null;
    recordJoin.mutate(meeting.id, {
      onSuccess: () => {
        const href = meetingJoinHref(meeting.joinUrl, displayName);
        if (tab) tab.location.href = href;
        else window.open(href, '_blank', 'noopener,noreferrer');
      },
      onError: (error) => {
        tab?.close();
        toast.error('Could not join the meeting', { description: errorMessage(error) });
      },
    });
  };

  return (
    <div className="flex min-w-56 flex-col gap-2 rounded-md bg-background/90 p-3 text-foreground">
      <p className="flex items-center gap-2 font-semibold">
        <Video aria-hidden="true" className="size-4 shrink-0 text-primary" />
        <span className="min-w-0 flex-1">{meeting.title}</span>
        <Badge variant={badge.variant}>{badge.label}</Badge>
      </p>
      {meeting.description && <p className="text-sm whitespace-pre-wrap">{meeting.description}</p>}
      <p className={isCancelled ? 'text-sm text-muted-foreground line-through' : 'text-sm text-muted-foreground'}>
        <time dateTime={meeting.startTime}>{meetingTimeLabel(meeting.startTime)}</time>
      </p>
      <p className="text-sm font-medium" aria-live="off">
        {status}
      </p>
      <Button size="sm" disabled={!canJoin} loading={recordJoin.isPending} onClick={onJoin}>
        Join meeting
      </Button>
      {canCancel && (
        <Button size="sm" variant="outline" loading={cancel.isPending} onClick={onCancel}>
          Cancel meeting
        </Button>
      )}
    </div>
  );
}
