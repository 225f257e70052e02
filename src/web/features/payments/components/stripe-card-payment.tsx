import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Appearance, Stripe, StripeError } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { CircleAlert, Lock, RotateCw } from 'lucide-react';
import { useEffect, useState, useSyncExternalStore, type ReactNode, type SubmitEvent } from 'react';
import { paths } from '#shared/paths.ts';
import { formatCents } from '#shared/rules/money.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';

// Stripe's Payment Element, loaded only on a checkout under PAYMENTS_PROVIDER=stripe: this module (and Stripe.js,
// which it fetches from js.stripe.com) stays out of every other page. The browser holds only the PaymentIntent's
// client secret and the publishable key; the amount is the server's.

const DARK = '(prefers-color-scheme: dark)';
const subscribeToScheme = (onChange: () => void) => {
  const query = window.matchMedia(DARK);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};
const useDarkScheme = () => useSyncExternalStore(subscribeToScheme, () => window.matchMedia(DARK).matches);

/** The Payment Element in the app's colours (styles.css: the brand indigo, slate, the card's background). */
function appearanceFor(dark: boolean): Appearance {
  return {
    theme: dark ? 'night' : 'stripe',
    variables: {
      colorPrimary: dark ? '#7c86ff' : '#4f39f6',
      colorBackground: dark ? '#0f172b' : '#ffffff',
      colorText: dark ? '#f8fafc' : '#0f172b',
      colorDanger: dark ? '#ff6467' : '#e7000b',
      fontFamily: 'ui-sans-serif, system-ui, sans-serif',
      borderRadius: '6px',
    },
  };
}

/** What a student reads when Stripe refuses: the card's own reason, or that nothing happened. */
function refusalMessage(error: StripeError) {
  if ((error.type === 'card_error' || error.type === 'validation_error') && error.message) return error.message;
  return 'The payment could not be made. Please try again.';
}

type PaymentFormProps = {
  checkoutId: string;
  amountCents: number;
  /** Stripe took the card (or is still processing it): the server is asked next. */
  onConfirmed: () => void;
  /** The student's own controls beside Pay (cancelling the checkout). */
  actions: ReactNode;
};

function PaymentForm({ checkoutId, amountCents, onConfirmed, actions }: PaymentFormProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [failedToLoad, setFailedToLoad] = useState(false);
  const [paying, setPaying] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!stripe || !elements || paying) return;
    setRefusal(null);
    setPaying(true);
    // 3-D Secure opens over this page, or leaves for the bank's page and comes back to the checkout's address.
    const { error } = await stripe.confirmPayment({
      elements,
      confirmParams: { return_url: new URL(paths.checkout.getHref(checkoutId), window.location.origin).href },
      redirect: 'if_required',
    });
    setPaying(false);
    if (error) setRefusal(refusalMessage(error));
    else onConfirmed();
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-5" aria-label="Card payment">
      {refusal && (
        <Alert variant="destructive" role="alert" icon={<CircleAlert aria-hidden="true" />} title="Payment not made">
          <p>{refusal} Nothing was charged; the offer is still held for you.</p>
        </Alert>
      )}
      {failedToLoad ? (
        <p role="alert" className="text-sm text-error">
          The card form could not be loaded. Check your connection and reload the page.
        </p>
      ) : (
        !ready && (
          <div className="flex justify-center py-8">
            <Spinner label="Loading the card form" className="size-6" />
          </div>
        )
      )}
      <PaymentElement
        className={ready ? undefined : 'hidden'}
        options={{ layout: 'tabs' }}
        onReady={() => setReady(true)}
        onLoadError={() => setFailedToLoad(true)}
      />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
        {actions}
        <Button type="submit" disabled={!ready || paying}>
          <Lock aria-hidden="true" />
          {paying ? 'Paying…' : `Pay ${formatCents(amountCents)}`}
        </Button>
      </div>
    </form>
  );
}

/** Stripe.js from js.stripe.com for this publishable key: once per page, again only after a failed load. */
const stripeLoads = new Map<string, Promise<Stripe | null>>();
function loadStripeFor(publishableKey: string) {
  let load = stripeLoads.get(publishableKey);
  if (!load) {
    load = loadStripe(publishableKey);
    load.catch(() => stripeLoads.delete(publishableKey));
    stripeLoads.set(publishableKey, load);
  }
  return load;
}

export function StripeCardPayment({
  clientSecret,
  publishableKey,
  ...form
}: PaymentFormProps & { clientSecret: string; publishableKey: string }) {
  const dark = useDarkScheme();
  const [attempt, setAttempt] = useState(0);
  const [stripe, setStripe] = useState<Stripe | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);

  useEffect(() => {
    let current = true;
    loadStripeFor(publishableKey).then(
      (loaded) => current && setStripe(loaded),
      () => current && setLoadFailed(true),
    );
    return () => {
      current = false;
    };
  }, [publishableKey, attempt]);

  if (loadFailed) {
    return (
      <Alert variant="destructive" icon={<CircleAlert aria-hidden="true" />} title="The card form could not be loaded">
        <p>
          Stripe, who takes the payment, could not be reached. Nothing was charged; the offer is still held for you.
        </p>
        <Button
          variant="outline"
          size="sm"
          className="mt-3"
          onClick={() => {
            setLoadFailed(false);
            setAttempt((count) => count + 1);
          }}
        >
          <RotateCw aria-hidden="true" />
          Try again
        </Button>
      </Alert>
    );
  }
  if (!stripe) {
    return (
      <div className="flex justify-center py-8">
        <Spinner label="Loading the card form" className="size-6" />
      </div>
    );
  }
  return (
    <Elements stripe={stripe} options={{ clientSecret, appearance: appearanceFor(dark) }}>
      <PaymentForm {...form} />
    </Elements>
  );
}
