import { CalendarPlus } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#web/components/ui/dialog.tsx';
import { lazyWithPreload } from '#web/components/lazy-with-preload.tsx';

// The form and its checks load once the conversation with the button is open (or as soon as someone reaches for it),
// not with the chat itself.
const ScheduleMeetingForm = lazyWithPreload(
  async () => (await import('./schedule-meeting-form.tsx')).ScheduleMeetingForm,
);

/** Teachers: "Schedule meeting" in a room. The partner is notified by the meeting message. */
export function ScheduleMeetingDialog({ roomId, partnerName }: { roomId: string; partnerName: string }) {
  const [isOpen, setOpen] = useState(false);
  const [isDone, setDone] = useState(false);
  const scheduleButton = useRef<HTMLButtonElement>(null);
  useEffect(() => ScheduleMeetingForm.preload(), []);

  return (
    <>
      <Dialog open={isOpen} onOpenChange={setOpen}>
        <Button
          ref={scheduleButton}
          variant="ghost"
          size="icon"
          aria-label="Schedule meeting"
          title="Schedule meeting"
          onPointerEnter={ScheduleMeetingForm.preload}
          onFocus={ScheduleMeetingForm.preload}
          onClick={() => setOpen(true)}
        >
          <CalendarPlus aria-hidden="true" className="size-5" />
        </Button>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Schedule meeting</DialogTitle>
            <DialogDescription>A video meeting with {partnerName}.</DialogDescription>
          </DialogHeader>
          <ScheduleMeetingForm
            roomId={roomId}
            onScheduled={() => {
              setOpen(false);
              setDone(true);
            }}
          />
        </DialogContent>
      </Dialog>
      <Dialog open={isDone} onOpenChange={setDone}>
        <DialogContent
          onCloseAutoFocus={(event) => {
            // Opened as the form's dialog closed, with nothing focused: back to the button that began it all.
            event.preventDefault();
            scheduleButton.current?.focus();
          }}
        >
          <DialogHeader>
            <DialogTitle>Meeting Scheduled!</DialogTitle>
            <DialogDescription>
              A notification was sent to the participant. They also get it by e-mail with a calendar invitation, and you
              both get reminders 24 hours and 1 hour before the start.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button>OK</Button>
            </DialogClose>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
