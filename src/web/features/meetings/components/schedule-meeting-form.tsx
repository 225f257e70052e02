import { format } from 'date-fns';
import { useState, type SubmitEvent } from 'react';
import { toast } from '#web/lib/toast.ts';
import { isFutureStart, localZoneName } from '#shared/rules/meeting-time.ts';
import { chatMessages } from '#shared/schemas/chat.ts';
import { Button } from '#web/components/ui/button.tsx';
import { DialogClose, DialogFooter } from '#web/components/ui/dialog.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { ApiError, errorMessage } from '#web/lib/api.ts';
import { useCreateMeeting } from '../api.ts';

type Errors = { title?: string; startTime?: string };

const localNow = () => format(new Date(), "yyyy-MM-dd'T'HH:mm");

/** The fields of "Schedule meeting"; it lives in the open dialog, so closing the dialog clears it. */
export function ScheduleMeetingForm({ roomId, onScheduled }: { roomId: string; onScheduled: () => void }) {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [startTime, setStartTime] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const create = useCreateMeeting();

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
        onSuccess: onScheduled,
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
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <FormField label="Title" error={errors.title} required>
        {/* The form may arrive after the dialog opened: the first field takes the focus, as it would have. */}
        <Input autoFocus value={title} onChange={(event) => setTitle(event.target.value)} maxLength={200} />
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
  );
}
