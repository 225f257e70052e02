import { formatBudget } from '#shared/rules/budget.ts';
import type { Job } from '#shared/schemas/requests.ts';
import { lazyWithPreload } from '#web/components/lazy-with-preload.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '#web/components/ui/dialog.tsx';
import { usePlaceBid } from '../api.ts';
import { requestTypeTitles } from './request-display.tsx';

/** The bid's fields and checks: loaded when a teacher reaches for "Submit Bid", not with the list of jobs. */
export const BidForm = lazyWithPreload(async () => (await import('./bid-form.tsx')).BidForm);

/** "Submit Your Bid" for one job; closes on success or when the job turns out to be bid on already. */
export function BidDialog({
  job,
  onClose,
  onBidRecorded,
}: {
  job: Job;
  onClose: () => void;
  onBidRecorded: () => void;
}) {
  const placeBid = usePlaceBid();
  return (
    <Dialog open onOpenChange={(open) => !open && !placeBid.isPending && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Submit Your Bid</DialogTitle>
          <DialogDescription>
            {requestTypeTitles[job.type]} · {job.subjectName} · Budget{' '}
            {formatBudget({ minCents: job.budgetMinCents, maxCents: job.budgetMaxCents })}
          </DialogDescription>
        </DialogHeader>
        <BidForm job={job} placeBid={placeBid} onClose={onClose} onBidRecorded={onBidRecorded} />
      </DialogContent>
    </Dialog>
  );
}
