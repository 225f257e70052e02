import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#web/components/ui/dialog.tsx';
import type { RequestDraft } from '#shared/schemas/guru.ts';
import { RequestForm } from './request-form.tsx';
import { RequestWizard } from './request-wizard.tsx';

/**
 * "Create New Request": the assistant by default, the standard form on request. A draft (from Guru AI's "Ask a tutor")
 * opens it at once on the standard form, filled in for the student to review.
 */
export function NewRequestDialog({ draft, onDraftDone }: { draft?: RequestDraft | null; onDraftDone?: () => void }) {
  const [isOpen, setOpen] = useState(Boolean(draft));
  const [variant, setVariant] = useState<'wizard' | 'form'>(draft ? 'form' : 'wizard');
  const close = () => {
    setOpen(false);
    onDraftDone?.();
  };
  return (
    <Dialog
      open={isOpen}
      onOpenChange={(open) => {
        setOpen(open);
        if (open) setVariant('wizard');
        else onDraftDone?.();
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden="true" />
          New Request
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Create New Request</DialogTitle>
          <DialogDescription>
            {variant === 'wizard' ? 'Answer a few questions, one at a time.' : 'Fill in all the details at once.'}{' '}
            <Button variant="link" type="button" onClick={() => setVariant(variant === 'wizard' ? 'form' : 'wizard')}>
              {variant === 'wizard' ? 'Use the standard form' : 'Use the step-by-step assistant'}
            </Button>
          </DialogDescription>
        </DialogHeader>
        {variant === 'wizard' ? (
          <RequestWizard onDone={close} onCancel={close} />
        ) : (
          <RequestForm draft={draft ?? null} onDone={close} onCancel={close} />
        )}
      </DialogContent>
    </Dialog>
  );
}
