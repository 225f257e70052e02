import { useState } from 'react';
import { adminMessages } from '#shared/schemas/admin.ts';
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
import { Textarea } from '#web/components/ui/textarea.tsx';
import { ApiError, errorMessage } from '#web/lib/api.ts';
import { toastMessage } from '#web/lib/toast-message.ts';

/**
 * Asks for the note of a decision (resolve, dismiss, review) or the reason of a suspension and sends it; closes when
 * the server has it.
 */
export function DecisionDialog({
  title,
  description,
  confirmLabel,
  noteLabel = 'Note',
  requiredMessage = adminMessages.noteRequired,
  destructive = false,
  onConfirm,
  onClose,
}: {
  title: string;
  description: string;
  confirmLabel: string;
  noteLabel?: string;
  requiredMessage?: string;
  destructive?: boolean;
  onConfirm: (note: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [isPending, setIsPending] = useState(false);

  const submit = async () => {
    if (!note.trim()) return setError(requiredMessage);
    setIsPending(true);
    try {
      await onConfirm(note.trim());
      onClose();
    } catch (failure) {
      setError(failure instanceof ApiError ? (failure.fields?.note ?? failure.fields?.reason) : undefined);
      toastMessage(errorMessage(failure));
    } finally {
      setIsPending(false);
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && !isPending && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="flex flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <FormField label={noteLabel} error={error} required>
            <Textarea
              rows={3}
              maxLength={1000}
              autoFocus
              value={note}
              onChange={(event) => {
                setNote(event.target.value);
                setError(undefined);
              }}
            />
          </FormField>
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline" disabled={isPending}>
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" variant={destructive ? 'destructive' : 'default'} loading={isPending}>
              {confirmLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
