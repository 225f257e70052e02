import { useId, useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#web/components/ui/dialog.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { toast } from '#web/lib/toast.ts';
import { useDeclineDirectRequest } from '../api.ts';

const REASON_MAX = 500;

/** "Decline" on a request sent to this tutor directly, with an optional reason the student reads. */
export function DeclineDirectRequest({ requestId }: { requestId: string }) {
  const [isOpen, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const decline = useDeclineDirectRequest();
  const reasonId = useId();
  return (
    <Dialog open={isOpen} onOpenChange={(open) => !decline.isPending && setOpen(open)}>
      <DialogTrigger asChild>
        <Button variant="outline">Decline</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Decline this request</DialogTitle>
          <DialogDescription>
            The student is told, and can open the request to all tutors of the subject.
          </DialogDescription>
        </DialogHeader>
        <form
          className="flex flex-col gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            decline.mutate(
              { requestId, reason },
              {
                onSuccess: () => {
                  toast.success('Request declined');
                  setOpen(false);
                },
                onError: (error) => toast.error('Could not decline', { description: errorMessage(error) }),
              },
            );
          }}
        >
          <Label htmlFor={reasonId}>Reason (optional)</Label>
          <Textarea
            id={reasonId}
            rows={3}
            maxLength={REASON_MAX}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            placeholder="For example: fully booked this week"
          />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" loading={decline.isPending}>
              Decline request
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
