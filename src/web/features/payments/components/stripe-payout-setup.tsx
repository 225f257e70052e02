import { CircleCheck, ExternalLink } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { formatCents } from '#shared/rules/money.ts';
import type { Earnings, PayoutSetup } from '#shared/schemas/earnings.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { toast } from '#web/lib/toast.ts';
import { useCheckPayoutSetup, useStartPayoutSetup } from '../earnings-api.ts';
import { AdultConfirmation } from './adult-confirmation.tsx';

// Payouts under Stripe: the tutor sets up a Stripe account in Stripe's own pages; released earnings are transferred
// to it, and Stripe pays them out to the tutor's bank on its schedule (there is no payout to request).

/** What Stripe's return to Earnings says: back from onboarding, or sent back for a new link (the old one expired). */
const RETURN_PARAM = 'payout-setup';

function setupMessage(setup: PayoutSetup, availableCents: number) {
  if (availableCents > 0) return `${formatCents(availableCents)} available — finish payout set-up to be paid.`;
  if (setup.started) return 'Stripe still needs some details from you before it can pay you.';
  return 'Set up payouts with Stripe to be paid for your jobs: Stripe asks for your details and your bank account.';
}

export function StripePayoutSetup({ earnings, setup }: { earnings: Earnings; setup: PayoutSetup }) {
  const startSetup = useStartPayoutSetup();
  const checkSetup = useCheckPayoutSetup();
  const [searchParams, setSearchParams] = useSearchParams();
  const returned = searchParams.get(RETURN_PARAM);
  const handled = useRef(false);

  const goToStripe = () =>
    startSetup.mutate(undefined, {
      onSuccess: ({ url }) => window.location.assign(url),
      onError: (error) => toast.error(errorMessage(error)),
    });

  // Back from Stripe: ask Stripe at once (its webhook may come later); sent back: a new link, straight to Stripe.
  useEffect(() => {
    if (!returned || handled.current) return;
    handled.current = true;
    setSearchParams((params) => {
      params.delete(RETURN_PARAM);
      return params;
    });
    if (returned === 'refresh') {
      goToStripe();
      return;
    }
    checkSetup.mutate(undefined, {
      onSuccess: (checked) =>
        checked.payoutsEnabled
          ? toast.success('Payouts are set up.')
          : toast.info('Stripe still needs some details from you before it can pay you.'),
      onError: (error) => toast.error(errorMessage(error)),
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per return from Stripe
  }, [returned]);

  if (!earnings.adultConfirmedAt)
    return <AdultConfirmation confirmedMessage="Thank you. You can now set up payouts." />;
  if (setup.payoutsEnabled) {
    return (
      <Card className="flex-row items-start gap-3 px-5 py-5">
        <CircleCheck className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
        <p className="text-sm">
          Payouts are set up. When a student marks a job completed, your share is sent to your Stripe account, and
          Stripe pays it out to your bank on its schedule.
        </p>
      </Card>
    );
  }
  return (
    <Card className="flex-row flex-wrap items-center justify-between gap-3 px-5 py-5">
      <p className="text-sm">{setupMessage(setup, earnings.availableCents)}</p>
      <Button loading={startSetup.isPending || checkSetup.isPending} onClick={goToStripe}>
        {setup.started ? 'Finish payout set-up' : 'Set up payouts'}
        <ExternalLink aria-hidden="true" />
      </Button>
    </Card>
  );
}
