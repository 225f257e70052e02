import { useQueryClient } from '@tanstack/react-query';
import { CircleAlert, RotateCw } from 'lucide-react';
import { useEffect, useEffectEvent, useRef, useState, type SubmitEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { checkoutMessages, type CheckoutView } from '#shared/schemas/checkouts.ts';
import { stripePaymentSchema } from '#shared/schemas/stripe-checkouts.ts';
import { lazyWithPreload } from '#web/components/lazy-with-preload.tsx';
import { Alert } from '#web/components/ui/alert.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { ApiError, errorMessage } from '#web/lib/api.ts';
import { paymentsKeys } from '../api.ts';
import { useConfirmStripePaid, useStartStripePayment } from '../stripe-api.ts';
import {
  CancelCheckoutButton,
  DeadlineField,
  deadlineInstant,
  needsDeadline,
  useGoToPaidJob,
} from './checkout-controls.tsx';

// A checkout paid through Stripe (docs/decisions/0051): the server makes the PaymentIntent, the Payment Element takes
// the card and Stripe confirms it (3-D Secure over the page, or on the bank's page, which returns here), and then the
// server is asked whether the payment is there. The amount is never the browser's.

const StripeCardPayment = lazyWithPreload(async () => (await import('./stripe-card-payment.tsx')).StripeCardPayment);

/** How often a payment Stripe is still processing is asked after again. */
const PROCESSING_POLL_MS = 3_000;

/**
 * What Stripe's return to the checkout says (`redirect_status`: succeeded, processing or failed), read once: the
 * address is cleaned at once. Null on a checkout reached otherwise.
 */
export function useStripeReturn() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const [status] = useState(() => searchParams.get('redirect_status'));
  useEffect(() => {
    // The address carries the PaymentIntent's client secret: it leaves the history.
    if (status !== null) void navigate({ search: '' }, { replace: true });
  }, [status, navigate]);
  return status;
}

export function StripeCheckout({ checkout, returned }: { checkout: CheckoutView; returned: string | null }) {
  const goToPaidJob = useGoToPaidJob();
  const queryClient = useQueryClient();
  const start = useStartStripePayment();
  const confirm = useConfirmStripePaid();
  const [processing, setProcessing] = useState(false);
  const [bankRefused, setBankRefused] = useState(returned === 'failed');
  const [deadline, setDeadline] = useState('');
  const [deadlineError, setDeadlineError] = useState<string>();
  const askingDeadline = needsDeadline(checkout);

  const startPayment = (input: { deadline?: string }) =>
    start.mutate(
      { checkoutId: checkout.id, input },
      {
        onError: (error) => {
          if (error instanceof ApiError && error.fields?.deadline) setDeadlineError(error.fields.deadline);
          if (error instanceof ApiError && error.code === 'CHECKOUT_CLOSED') {
            void queryClient.invalidateQueries({ queryKey: paymentsKeys.checkout(checkout.id) });
          }
        },
      },
    );

  const askServer = () =>
    confirm.mutate(checkout.id, {
      onSuccess: (view) => {
        if (view.status === 'awaiting_payment') setProcessing(true);
        else goToPaidJob(view);
      },
      onError: (error) => {
        setProcessing(false);
        if (error instanceof ApiError && error.code === 'CHECKOUT_CLOSED') {
          void queryClient.invalidateQueries({ queryKey: paymentsKeys.checkout(checkout.id) });
        }
      },
    });
  // On arrival: back from the bank's page with the card confirmed, the server is asked; otherwise paying starts,
  // unless the assignment's deadline is asked first.
  const arrive = useEffectEvent(() => {
    if (returned === 'succeeded' || returned === 'processing') askServer();
    else if (!askingDeadline) startPayment({});
  });
  const arrivedRef = useRef(false);
  useEffect(() => {
    if (arrivedRef.current) return;
    arrivedRef.current = true;
    arrive();
  }, []);

  // Stripe is still processing: asked again every few seconds until the payment is there (or the checkout closes).
  const askAgain = useEffectEvent(askServer);
  useEffect(() => {
    if (!processing || confirm.isPending) return;
    const timer = window.setTimeout(askAgain, PROCESSING_POLL_MS);
    return () => window.clearTimeout(timer);
  }, [processing, confirm.isPending]);

  const submitDeadline = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = { deadline: deadlineInstant(deadline) };
    const parsed = stripePaymentSchema.safeParse(input);
    if (!input.deadline) return setDeadlineError(checkoutMessages.deadlineRequired);
    if (!parsed.success) return setDeadlineError(parsed.error.issues[0]?.message);
    startPayment(input);
  };

  const cancel = <CancelCheckoutButton checkoutId={checkout.id} disabled={start.isPending || confirm.isPending} />;

  if (returned === 'succeeded' || returned === 'processing' || processing || confirm.isPending || confirm.isError) {
    if (confirm.isError && !processing) {
      return (
        <Alert
          variant="destructive"
          role="alert"
          icon={<CircleAlert aria-hidden="true" />}
          title="Payment not known yet"
        >
          <p>{errorMessage(confirm.error)}</p>
          <Button variant="outline" size="sm" className="mt-3" onClick={() => askServer()}>
            <RotateCw aria-hidden="true" />
            Try again
          </Button>
        </Alert>
      );
    }
    return (
      <Alert variant="info" role="status" icon={<Spinner className="size-4" />} title="Confirming your payment">
        <p>
          {processing
            ? 'Your bank is still confirming the payment. This page moves on by itself once it is done; the offer stays held for you.'
            : 'Checking with Stripe that your payment went through…'}
        </p>
      </Alert>
    );
  }

  return (
    <div className="flex flex-col gap-5">
      {bankRefused && (
        <Alert variant="destructive" role="alert" icon={<CircleAlert aria-hidden="true" />} title="Payment not made">
          <p>
            Your bank did not confirm the payment. Nothing was charged; try again or use another card. The offer is
            still held for you.
          </p>
          <Button variant="outline" size="sm" className="mt-3" onClick={() => setBankRefused(false)}>
            Dismiss
          </Button>
        </Alert>
      )}
      {start.data ? (
        <StripeCardPayment
          checkoutId={checkout.id}
          amountCents={checkout.amountCents}
          clientSecret={start.data.clientSecret}
          publishableKey={start.data.publishableKey}
          onConfirmed={() => {
            setBankRefused(false);
            askServer();
          }}
          actions={cancel}
        />
      ) : askingDeadline ? (
        <form onSubmit={submitDeadline} noValidate className="flex flex-col gap-5" aria-label="Set the deadline">
          <DeadlineField
            value={deadline}
            error={deadlineError}
            onChange={(value) => {
              setDeadline(value);
              setDeadlineError(undefined);
            }}
          />
          {start.isError && !deadlineError && (
            <p role="alert" className="text-sm text-error">
              {errorMessage(start.error)}
            </p>
          )}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
            {cancel}
            <Button type="submit" disabled={start.isPending}>
              {start.isPending ? 'Preparing the payment…' : 'Continue to payment'}
            </Button>
          </div>
        </form>
      ) : start.isError ? (
        <Alert variant="destructive" icon={<CircleAlert aria-hidden="true" />} title="Paying cannot start">
          <p>{errorMessage(start.error)}</p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Button variant="outline" size="sm" onClick={() => startPayment({})}>
              <RotateCw aria-hidden="true" />
              Try again
            </Button>
            {cancel}
          </div>
        </Alert>
      ) : (
        <div className="flex justify-center py-8">
          <Spinner label="Preparing the payment" className="size-6" />
        </div>
      )}
    </div>
  );
}
