import { CircleCheck, MailWarning, TriangleAlert } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import type { z } from 'zod';
import type { loginSchema, LoginInput } from '#shared/schemas/auth.ts';
import { paths } from '#shared/paths.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { PasswordInput } from '#web/components/ui/password-input.tsx';
import { ApiError, errorMessage } from '#web/lib/api.ts';
import { notifyAuthChanged } from '#web/lib/auth-client.ts';
import { signInDestination } from '#web/lib/redirect.ts';
import { useSendConfirmationEmail, useSignIn } from '../api.ts';
import { authLinkClasses } from './auth-page-shell.tsx';
import { SecondFactorForm } from './second-factor-form.tsx';
import { applyFieldErrors } from '#web/lib/form-errors.ts';
import { Form } from '#web/components/ui/form.tsx';
import { lazyZodResolver } from '#web/lib/lazy-zod-resolver.ts';

// Shown only around a deleted account, so loaded only then.
const AccountDeletedNote = lazy(async () => ({
  default: (await import('./account-deletion-notes.tsx')).AccountDeletedNote,
}));
const RestoreAccountOffer = lazy(async () => ({
  default: (await import('./account-deletion-notes.tsx')).RestoreAccountOffer,
}));

// The form's checks (zod and the schema) load as someone starts filling it in.
const loginSchemaResolver = lazyZodResolver(async () => (await import('#shared/schemas/auth.ts')).loginSchema);

type LoginFormValues = z.input<typeof loginSchema>;

const fieldNames = ['email', 'password'] as const;

/** The note shown after following the link of a confirmation mail (?confirmed=1, with ?error= when it failed). */
function ConfirmationNote({ searchParams }: { searchParams: URLSearchParams }) {
  if (searchParams.get('confirmed') !== '1') return null;
  if (searchParams.has('error')) {
    return (
      <Alert
        variant="warning"
        role="status"
        icon={<TriangleAlert aria-hidden="true" />}
        title="This confirmation link did not work"
      >
        <p>It is invalid or has expired. Sign in with your e-mail and password and we will send you a new one.</p>
      </Alert>
    );
  }
  return (
    <Alert variant="success" role="status" icon={<CircleCheck aria-hidden="true" />}>
      <p>Your e-mail is confirmed. You can sign in now.</p>
    </Alert>
  );
}

export function LoginForm() {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  // Registration passes the new address along, so only the password is left to type.
  const state: unknown = location.state;
  const prefilledEmail =
    typeof state === 'object' && state !== null && 'email' in state && typeof state.email === 'string'
      ? state.email
      : '';

  const form = useForm<LoginFormValues, unknown, LoginInput>({
    resolver: loginSchemaResolver,
    defaultValues: { email: prefilledEmail, password: '' },
  });
  const { errors } = form.formState;
  const signIn = useSignIn();
  const resend = useSendConfirmationEmail();
  const [unconfirmedEmail, setUnconfirmedEmail] = useState<string | null>(null);
  const [isRedirecting, setRedirecting] = useState(false);
  // An admin's account with a second factor: the code comes after the password.
  const [needsCode, setNeedsCode] = useState(false);
  // A sign-in refused because the account is being deleted: what it said, and the credentials that restore it.
  const [pendingDeletion, setPendingDeletion] = useState<{ message: string; credentials: LoginInput } | null>(null);

  const enter = async () => {
    setRedirecting(true);
    toast.success('Logged in successfully! Redirecting to chat...');
    // The guarded page must see the new session before it renders, or it would send us back here.
    await notifyAuthChanged();
    await navigate(signInDestination(searchParams.get('redirectTo')), { replace: true });
  };

  const submitSignIn = (values: LoginInput) => {
    setUnconfirmedEmail(null);
    setPendingDeletion(null);
    signIn.mutate(values, {
      onSuccess: (answer) => {
        if (answer?.twoFactorRedirect) setNeedsCode(true);
        else void enter();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'EMAIL_NOT_VERIFIED') {
          setUnconfirmedEmail(values.email);
          return;
        }
        if (error instanceof ApiError && error.code === 'ACCOUNT_DELETION_PENDING') {
          setPendingDeletion({ message: error.message, credentials: values });
          return;
        }
        if (applyFieldErrors(form.setError, error, fieldNames)) return;
        toast.error('Error', {
          description: error instanceof ApiError && error.message ? error.message : 'Invalid credentials',
        });
      },
    });
  };
  const onSubmit = form.handleSubmit(submitSignIn);

  const resendConfirmation = () => {
    if (!unconfirmedEmail) return;
    resend.mutate(unconfirmedEmail, {
      onSuccess: () =>
        toast.success('Confirmation e-mail sent', {
          description: `We sent a new link to ${unconfirmedEmail}. Please check your inbox and spam folder.`,
        }),
      onError: (error) => toast.error('Error', { description: errorMessage(error) }),
    });
  };

  // isSubmitting covers the wait for the form's checks to arrive, so a second press sends nothing twice.
  const isBusy = form.formState.isSubmitting || signIn.isPending || isRedirecting;

  if (needsCode) {
    const restart = (message: string) => {
      toast.error('Error', { description: message });
      form.resetField('password');
      setNeedsCode(false);
    };
    return <SecondFactorForm onVerified={enter} onRestart={restart} />;
  }

  return (
    <Form noValidate onSubmit={onSubmit} onFocus={loginSchemaResolver.preload} className="flex flex-col gap-5">
      <ConfirmationNote searchParams={searchParams} />
      <Suspense>
        {!pendingDeletion && searchParams.get('accountDeleted') === '1' && <AccountDeletedNote />}
        {pendingDeletion && (
          <RestoreAccountOffer
            message={pendingDeletion.message}
            credentials={pendingDeletion.credentials}
            onRestored={() => submitSignIn(pendingDeletion.credentials)}
          />
        )}
      </Suspense>

      {unconfirmedEmail && (
        <Alert
          role="alert"
          variant="warning"
          icon={<MailWarning aria-hidden="true" />}
          title="Please confirm your e-mail address"
        >
          <p>
            You need to confirm <strong className="font-semibold break-all">{unconfirmedEmail}</strong> before you can
            sign in. We have just sent you a new confirmation link: open it, then sign in again.
          </p>
          <Button
            variant="outline"
            size="sm"
            className="mt-3 bg-background/60"
            loading={resend.isPending}
            onClick={resendConfirmation}
          >
            Resend confirmation e-mail
          </Button>
        </Alert>
      )}

      <FormField label="Email" error={errors.email?.message} required>
        <Input type="email" autoComplete="email" inputMode="email" maxLength={254} {...form.register('email')} />
      </FormField>

      <div className="relative">
        <FormField label="Password" error={errors.password?.message} required>
          <PasswordInput autoComplete="current-password" maxLength={128} {...form.register('password')} />
        </FormField>
        <Link
          to={paths.auth.forgotPassword.getHref()}
          className={`absolute -top-0.5 right-0 text-sm ${authLinkClasses}`}
        >
          Forgot your password?
        </Link>
      </div>

      <Button type="submit" size="lg" className="mt-1 w-full" loading={isBusy}>
        {isBusy ? 'Signing in...' : 'Sign in'}
      </Button>
    </Form>
  );
}
