import { Video } from 'lucide-react';
import { format, formatDistanceStrict } from 'date-fns';
import { useEffect, useState } from 'react';
import { MEETING_JOIN_WINDOW } from '#shared/constants.ts';
import type { ChatMessage } from '#shared/schemas/chat.ts';
import { Button } from '#web/components/ui/button.tsx';

type Meeting = NonNullable<ChatMessage['meeting']>;

/** The video service's URL with our settings: no pre-join page, chat off, the user's name filled in. */
export function meetingJoinHref(joinUrl: string, displayName: string) {
  const params = [
    'config.prejoinPageEnabled=false',
    `userInfo.displayName=${encodeURIComponent(JSON.stringify(displayName))}`,
    'config.disableChat=true',
  ];
  return `${joinUrl.split('#')[0]}#${params.join('&')}`;
}

/** Title, start time, countdown ("Starts in …", then "Meeting in progress"), Join from 10 min before to 10 h after. */
export function MeetingCard({ meeting, displayName }: { meeting: Meeting; displayName: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const start = new Date(meeting.startTime).getTime();
  const canJoin = now >= start - MEETING_JOIN_WINDOW.beforeMs && now <= start + MEETING_JOIN_WINDOW.afterMs;
  const isOver = now > start + MEETING_JOIN_WINDOW.afterMs;
  const status =
    now < start ? `Starts in ${formatDistanceStrict(start, now)}` : isOver ? 'Meeting ended' : 'Meeting in progress';

  return (
    <div className="flex min-w-56 flex-col gap-2 rounded-md bg-background/90 p-3 text-foreground">
      <p className="flex items-center gap-2 font-semibold">
        <Video aria-hidden="true" className="size-4 text-primary" />
        {meeting.title}
      </p>
      {meeting.description && <p className="text-sm whitespace-pre-wrap">{meeting.description}</p>}
      <p className="text-sm text-muted-foreground">{format(start, 'EEEE d MMMM yyyy, HH:mm')}</p>
      <p className="text-sm font-medium" aria-live="off">
        {status}
      </p>
      <Button
        size="sm"
        disabled={!canJoin}
        onClick={() => window.open(meetingJoinHref(meeting.joinUrl, displayName), '_blank', 'noopener,noreferrer')}
      >
        Join meeting
      </Button>
    </div>
  );
}
