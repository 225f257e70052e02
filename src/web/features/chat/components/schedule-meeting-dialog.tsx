import { format } from 'date-fns';
import { CalendarPlus } from 'lucide-react';
import { useState, type SubmitEvent } from 'react';
import { toast } from 'sonner';
import { localZoneName } from '#shared/rules/meeting-time.ts';
import { chatMessages, isFutureStart } from '#shared/schemas/chat.ts';
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
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { ApiError, errorMessage } from '#web/lib/api.ts';
import { useCreateMeeting } from '../api.ts';

type Errors = { title?: string; startTime?: string };

const localNow = () => format(new Date(), "yyyy-MM-dd'T'HH:mm");

/** Teachers: "Schedule meeting" in a room. The partner is notified by the meeting message. */
export function ScheduleMeetingDialog({ roomId, partnerName }: { roomId: string; partnerName: string }) {
  const [isOpen, setOpen] = useState(false);
  const [isDone, setDone] = useState(false);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [startTime, setStartTime] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const create = useCreateMeeting();

  const reset = () => {
    setTitle('');
    setDescription('');
    setStartTime('');
    setErrors({});
    create.reset();
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next: Errors = {};
    if (!title.trim()) next.title = chatMessages.titleRequired;
    if (!startTime) next.startTime = chatMessages.startRequired;
    else if (!isFutureStart(new Date(startTime))) next.startTime = chatMessages.startInPast;
    setErrors(next);
    if (next.title || next.startTime) return;
    create.mutate(
      {
        roomId,
        input: {
          title: title.trim(),
          ...(description.trim() ? { description: description.trim() } : {}),
          startTime: new Date(startTime).toISOString(),
        },
      },
      {
        onSuccess: () => {
          setOpen(false);
          reset();
          setDone(true);
        },
        onError: (error) => {
          const fields = error instanceof ApiError ? error.fields : undefined;
          if (fields?.title || fields?.startTime) {
            setErrors({ title: fields.title, startTime: fields.startTime });
            return;
          }
          toast.error('Error creating meeting', { description: errorMessage(error) });
        },
      },
    );
  };

  return (
    <>
      <Dialog
        open={isOpen}
        onOpenChange={(open) => {
          setOpen(open);
          if (!open) reset();
        }}
      >
        <Button
          variant="ghost"
          size="icon"
          aria-label="Schedule meeting"
          title="Schedule meeting"
          onClick={() => setOpen(true)}
        >
          <CalendarPlus aria-hidden="true" className="size-5" />
        </Button>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Schedule meeting</DialogTitle>
            <DialogDescription>A video meeting with {partnerName}.</DialogDescription>
          </DialogHeader>
          <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
            <FormField label="Title" error={errors.title} required>
              <Input value={title} onChange={(event) => setTitle(event.target.value)} maxLength={200} />
            </FormField>
            <FormField label="Description (optional)">
              <Textarea value={description} onChange={(event) => setDescription(event.target.value)} maxLength={2000} />
            </FormField>
            <FormField
              label="Start time"
              error={errors.startTime}
              required
              description={`In your time zone (${localZoneName()}); the other participant sees it in theirs.`}
            >
              <Input
                type="datetime-local"
                min={localNow()}
                value={startTime}
                onChange={(event) => setStartTime(event.target.value)}
              />
            </FormField>
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="outline" disabled={create.isPending}>
                  Cancel
                </Button>
              </DialogClose>
              <Button type="submit" loading={create.isPending}>
                Schedule
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
      <Dialog open={isDone} onOpenChange={setDone}>
        <DialogContent>
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
