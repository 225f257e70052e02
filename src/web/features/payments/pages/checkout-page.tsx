import { CircleAlert, CreditCard, Landmark, Lock } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type SubmitEvent } from 'react';
import { Link, useParams } from 'react-router';
import { paths } from '#shared/paths.ts';
import { formatCents } from '#shared/rules/money.ts';
import { checkoutMessages, payCheckoutSchema, type CardInput, type CheckoutView } from '#shared/schemas/checkouts.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { Container } from '#web/components/ui/container.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { QueryError } from '#web/components/ui/query-error.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { ApiError, errorMessage } from '#web/lib/api.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { useCheckout, usePayCheckout } from '../api.ts';
import {
  CancelCheckoutButton,
  DeadlineField,
  deadlineInstant,
  needsDeadline as needsDeadlineFor,
  useGoToPaidJob,
} from '../components/checkout-controls.tsx';
import { StripeCheckout, useStripeReturn } from '../components/stripe-checkout.tsx';
import { TestModeNotice } from '../components/test-mode-notice.tsx';

type CardField = keyof CardInput;
type FormErrors = Partial<Record<CardField | 'deadline', string>>;
const EMPTY_CARD: CardInput = { number: '', expiry: '', cvc: '', name: '' };

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** What the student buys: one session for tutoring, the assignment by its deadline. */
export function purchaseLabel(request: CheckoutView['request']) {
  if (request.type === 'tutoring') return `One ${request.subjectName} session of up to an hour`;
  return request.deadline
    ? `The ${request.subjectName} assignment, due ${dateTime.format(new Date(request.deadline))}`
    : `The ${request.subjectName} assignment`;
}

/** "12:05": the minutes and seconds left, or hours and minutes when the hold is days long. */
function remainingLabel(ms: number) {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(seconds / 3600);
  if (hours >= 1) return `${hours} h ${Math.floor((seconds % 3600) / 60)} min`;
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The time left on the hold, ticking each second; calls onLapse once it reaches zero. */
function HoldCountdown({ expiresAt, onLapse }: { expiresAt: string; onLapse: () => void }) {
  const [now, setNow] = useState(() => Date.now());
  const end = new Date(expiresAt).getTime();
  const lapsed = now >= end;
  useEffect(() => {
    if (lapsed) {
      onLapse();
      return;
    }
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [lapsed, onLapse]);
  return (
    <p className="text-sm text-muted-foreground">
      The offer is held for you for{' '}
      <span className="font-medium text-foreground tabular-nums">{remainingLabel(end - now)}</span>; after that it is
      open again.
    </p>
  );
}

function CheckoutSummary({ checkout }: { checkout: CheckoutView }) {
  return (
    <Card className="gap-4 px-5 py-5" aria-label="What you pay for">
      <div className="flex items-center gap-4">
        <Avatar name={checkout.tutor.username} src={checkout.tutor.image} className="size-12 text-lg" />
        <div className="min-w-0 flex-1">
          <p className="text-sm text-muted-foreground">Your tutor</p>
          <p className="truncate font-semibold">{checkout.tutor.username}</p>
        </div>
        <p className="text-2xl font-bold tabular-nums">{formatCents(checkout.amountCents)}</p>
      </div>
      <p>{purchaseLabel(checkout.request)}</p>
      <p className="text-sm text-muted-foreground">
        Your payment is held until the job is done and only then goes to the tutor. Refunds apply if the tutor misses
        the session or the assignment is not delivered by its deadline.
      </p>
    </Card>
  );
}

function CardForm({ checkout }: { checkout: CheckoutView }) {
  const goToPaidJob = useGoToPaidJob();
  const pay = usePayCheckout();
  const [card, setCard] = useState<CardInput>(EMPTY_CARD);
  const [deadline, setDeadline] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const [declined, setDeclined] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // Set with new messages, so focus moves to the first field at fault once they are shown.
  const [focusFirstError, setFocusFirstError] = useState(0);
  useEffect(() => {
    if (focusFirstError === 0) return;
    formRef.current?.querySelector<HTMLInputElement>('input[aria-invalid="true"]')?.focus();
  }, [focusFirstError]);
  const needsDeadline = needsDeadlineFor(checkout);

  const showErrors = (next: FormErrors) => {
    setErrors(next);
    setFocusFirstError((count) => count + 1);
  };

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setDeclined(null);
    const instant = deadlineInstant(deadline);
    const input = { card, ...(instant ? { deadline: instant } : {}) };
    const parsed = payCheckoutSchema.safeParse(input);
    const found: FormErrors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = (issue.path[0] === 'card' ? issue.path[1] : issue.path[0]) as keyof FormErrors;
        found[field] ??= issue.message;
      }
    }
    if (needsDeadline && !input.deadline) found.deadline = checkoutMessages.deadlineRequired;
    if (Object.keys(found).length > 0) return showErrors(found);
    pay.mutate(
      { checkoutId: checkout.id, input },
      {
        onSuccess: goToPaidJob,
        onError: (error) => {
          const fields = error instanceof ApiError ? (error.fields ?? {}) : {};
          const placed: FormErrors = {};
          for (const [path, message] of Object.entries(fields)) {
            placed[path.replace(/^card\./, '') as keyof FormErrors] = message;
          }
          if (error instanceof ApiError && error.status === 402) setDeclined(error.message);
          if (Object.keys(placed).length > 0) showErrors(placed);
          else if (!(error instanceof ApiError && error.status === 402)) setDeclined(errorMessage(error));
        },
      },
    );
  };

  const field = (name: CardField) => ({
    name,
    value: card[name],
    onChange: (event: { target: { value: string } }) => {
      setCard((typed) => ({ ...typed, [name]: event.target.value }));
      setErrors((shown) => ({ ...shown, [name]: undefined }));
    },
  });

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-5" aria-label="Card payment">
      {declined && (
        <Alert variant="destructive" role="alert" icon={<CircleAlert aria-hidden="true" />} title="Payment not made">
          <p>{declined} Nothing was charged; the offer is still held for you.</p>
        </Alert>
      )}
      {needsDeadline && (
        <DeadlineField
          value={deadline}
          error={errors.deadline}
          onChange={(value) => {
            setDeadline(value);
            setErrors((shown) => ({ ...shown, deadline: undefined }));
          }}
        />
      )}
      <FormField label="Card number" required error={errors.number}>
        <Input inputMode="numeric" autoComplete="cc-number" placeholder="1234 1234 1234 1234" {...field('number')} />
      </FormField>
      <div className="grid grid-cols-2 gap-4">
        <FormField label="Expiry date" required error={errors.expiry}>
          <Input inputMode="numeric" autoComplete="cc-exp" placeholder="MM/YY" {...field('expiry')} />
        </FormField>
        <FormField label="Security code (CVC)" required error={errors.cvc}>
          <Input inputMode="numeric" autoComplete="cc-csc" placeholder="123" {...field('cvc')} />
        </FormField>
      </div>
      <FormField label="Name on card" required error={errors.name}>
        <Input autoComplete="cc-name" {...field('name')} />
      </FormField>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
        <CancelCheckoutButton checkoutId={checkout.id} disabled={pay.isPending} />
        <Button type="submit" disabled={pay.isPending}>
          <Lock aria-hidden="true" />
          {pay.isPending ? 'Paying…' : `Pay ${formatCents(checkout.amountCents)}`}
        </Button>
      </div>
    </form>
  );
}

/** A checkout that is no longer awaiting payment: paid, cancelled or lapsed. */
function ClosedCheckout({ checkout }: { checkout: CheckoutView }) {
  const backToOffers = (
    <Button asChild variant="outline" size="sm" className="mt-3">
      <Link to={paths.student.offers.getHref(checkout.requestId)}>Back to the offers</Link>
    </Button>
  );
  if (checkout.status === 'paid') {
    return (
      <Alert variant="success" title={`Paid ${formatCents(checkout.amountCents)}`}>
        <p>The offer is accepted and your payment is held until the job is done.</p>
        <Button asChild size="sm" className="mt-3">
          <Link to={paths.chat.getHref(checkout.tutor.id)}>Chat with {checkout.tutor.username}</Link>
        </Button>
      </Alert>
    );
  }
  return (
    <Alert variant="warning" title={checkout.status === 'cancelled' ? 'Checkout cancelled' : 'Checkout lapsed'}>
      <p>
        {checkout.status === 'cancelled'
          ? 'You cancelled this checkout. Nothing was charged, and the offers on your request are open again.'
          : 'The time to pay has run out. Nothing was charged, and the offers on your request are open again.'}
      </p>
      {backToOffers}
    </Alert>
  );
}

export function CheckoutPage() {
  useDocumentTitle('Checkout');
  const { checkoutId = '' } = useParams();
  const checkout = useCheckout(checkoutId);
  const { refetch } = checkout;
  const onLapse = useCallback(() => void refetch(), [refetch]);
  const returnedFromStripe = useStripeReturn();
  const goToPaidJob = useGoToPaidJob();
  // Back from the bank's 3-D Secure page after Stripe's webhook already recorded the payment: on to the job as well.
  const paidOnReturn = returnedFromStripe !== null && checkout.data?.status === 'paid' ? checkout.data : null;
  useEffect(() => {
    if (paidOnReturn) goToPaidJob(paidOnReturn);
  }, [paidOnReturn, goToPaidJob]);

  return (
    <Container className="flex max-w-2xl flex-col gap-6 py-8 sm:py-12">
      <PageHeader title="Checkout" description="Pay for the offer you accepted to start the job." />
      {checkout.isPending ? (
        <>
          <span role="status" className="sr-only">
            Loading checkout
          </span>
          <Skeleton className="h-40 w-full rounded-xl" />
          <Skeleton className="h-64 w-full rounded-xl" />
        </>
      ) : checkout.isError ? (
        <QueryError title="This checkout cannot be shown" query={checkout}>
          <Button asChild variant="outline" size="sm">
            <Link to={paths.student.posts.getHref()}>My Requests</Link>
          </Button>
        </QueryError>
      ) : (
        <>
          {checkout.data.provider === 'test' && <TestModeNotice />}
          <CheckoutSummary checkout={checkout.data} />
          {checkout.data.status !== 'awaiting_payment' ? (
            <ClosedCheckout checkout={checkout.data} />
          ) : checkout.data.provider === 'manual' ? (
            <Card className="gap-3 px-5 py-5">
              <h2 className="flex items-center gap-2 text-lg font-semibold">
                <Landmark aria-hidden="true" className="size-5" />
                Pay by bank transfer
              </h2>
              <p>
                Transfer {formatCents(checkout.data.amountCents)} with the reference{' '}
                <span className="font-mono font-semibold">{checkout.data.id.slice(0, 8).toUpperCase()}</span>. The offer
                is accepted as soon as the transfer arrives.
              </p>
              <HoldCountdown expiresAt={checkout.data.expiresAt} onLapse={onLapse} />
            </Card>
          ) : (
            <Card className="gap-5 px-5 py-5">
              <h2 className="flex items-center gap-2 text-lg font-semibold">
                <CreditCard aria-hidden="true" className="size-5" />
                Pay by card
              </h2>
              <HoldCountdown expiresAt={checkout.data.expiresAt} onLapse={onLapse} />
              {checkout.data.provider === 'stripe' ? (
                <StripeCheckout checkout={checkout.data} returned={returnedFromStripe} />
              ) : (
                <CardForm checkout={checkout.data} />
              )}
            </Card>
          )}
        </>
      )}
    </Container>
  );
}
