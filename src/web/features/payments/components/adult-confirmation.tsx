import { useId, useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { toast } from '#web/lib/toast.ts';
import { useConfirmAdult } from '../earnings-api.ts';

/** The teacher confirms being 18 or older, once, before they can be paid. */
export function AdultConfirmation({ confirmedMessage }: { confirmedMessage: string }) {
  const confirmAdult = useConfirmAdult();
  const [isAdult, setAdult] = useState(false);
  const checkboxId = useId();
  return (
    <Card className="gap-3 px-5 py-5">
      <h2 className="text-lg font-semibold">Before your first payout</h2>
      <p className="text-sm text-muted-foreground">
        Tutors must be adults to be paid. Accounts can be opened from the age of 13, so we ask you to confirm your age
        once before we pay you.
      </p>
      <div className="flex items-center gap-3">
        <Checkbox id={checkboxId} checked={isAdult} onCheckedChange={(checked) => setAdult(checked === true)} />
        <Label htmlFor={checkboxId}>I confirm that I am 18 or older</Label>
      </div>
      <Button
        className="self-start"
        disabled={!isAdult}
        loading={confirmAdult.isPending}
        onClick={() =>
          confirmAdult.mutate(undefined, {
            onSuccess: () => toast.success(confirmedMessage),
            onError: (error) => toast.error(errorMessage(error)),
          })
        }
      >
        Confirm
      </Button>
    </Card>
  );
}
