import { zodResolver } from '@hookform/resolvers/zod';
import { CircleCheck, Link2Off } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import type { z } from 'zod';
import { newPasswordSchema, type NewPasswordInput } from '#shared/schemas/auth.ts';
import { paths } from '#shared/paths.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { PasswordInput } from '#web/components/ui/password-input.tsx';
import { ApiError } from '#web/lib/api.ts';
import { useResetPassword } from '../api.ts';
import { authLinkClasses } from './auth-page-shell.tsx';
import { PasswordChecklist, strongPasswordRules } from './password-checklist.tsx';
import { applyFieldErrors } from '#web/lib/form-errors.ts';

type NewPasswordValues = z.input<typeof newPasswordSchema>;

/** SPEC.md §4 "Reset link session": unknown (no token), valid (a token), invalid (refused). */
export type ResetLinkState = 'unknown' | 'valid' | 'invalid';

const REDIRECT_DELAY_MS = 2000;
const FAILURE_MESSAGE = 'Failed to reset password. Please try again.';

const linkTexts: Record<Exclude<ResetLinkState, 'valid'>, { title: string; text: string }> = {
  unknown: {
    title: 'No reset link',
    text: 'No valid reset token found. Please request a new password reset link.',
  },
  invalid: {
    title: 'This link no longer works',
    text: 'The password reset link is invalid or has expired.',
  },
};

/** The unknown and invalid states: what went wrong and the way to a new link. */
export function ResetLinkProblem({ state }: { state: Exclude<ResetLinkState, 'valid'> }) {
  const { title, text } = linkTexts[state];
  return (
    <div className="flex flex-col gap-5">
      <Alert variant="warning" role="alert" icon={<Link2Off aria-hidden="true" />} title={title}>
        <p>{text}</p>
      </Alert>
      <p className="text-sm text-muted-foreground">
        Reset links work once and expire after 10 minutes. Ask for a new one and use it straight away.
      </p>
      <Button asChild size="lg" className="w-full">
        <Link to={paths.auth.forgotPassword.getHref()}>Request New Reset Link</Link>
      </Button>
    </div>
  );
}

function ResetDone() {
  return (
    <div className="flex flex-col gap-5">
      <Alert variant="success" role="status" icon={<CircleCheck aria-hidden="true" />} title="Password Updated">
        <p>Your password has been changed. Taking you to the sign-in page in 2 seconds...</p>
      </Alert>
      <Button asChild size="lg" variant="outline" className="w-full">
        <Link to={paths.auth.login.getHref()} replace>
          Go to Sign In now
        </Link>
      </Button>
    </div>
  );
}

type ResetPasswordFormProps = {
  token: string;
  /** The server refused the token: the page switches to the invalid state. */
  onInvalidToken: () => void;
};

export function ResetPasswordForm({ token, onInvalidToken }: ResetPasswordFormProps) {
  const navigate = useNavigate();
  const form = useForm<NewPasswordValues, unknown, NewPasswordInput>({
    resolver: zodResolver(newPasswordSchema),
    mode: 'onTouched',
    defaultValues: { password: '', confirmPassword: '' },
  });
  const { errors } = form.formState;
  const password = useWatch({ control: form.control, name: 'password' });
  const reset = useResetPassword();
  const [isDone, setDone] = useState(false);

  // SPEC.md §2: to the sign-in page 2 seconds after success.
  useEffect(() => {
    if (!isDone) return;
    const timer = setTimeout(() => void navigate(paths.auth.login.getHref(), { replace: true }), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [isDone, navigate]);

  const onSubmit = form.handleSubmit((values) =>
    reset.mutate(
      { newPassword: values.password, token },
      {
        onSuccess: () => {
          toast.success('Password Updated', { description: 'You can now sign in with your new password.' });
          setDone(true);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'INVALID_TOKEN') {
            onInvalidToken();
            return;
          }
          if (applyFieldErrors(form.setError, error, [], { newPassword: 'password' })) return;
          const description = error instanceof ApiError && error.status === 429 ? error.message : undefined;
          toast.error(FAILURE_MESSAGE, description ? { description } : undefined);
        },
      },
    ),
  );

  if (isDone) return <ResetDone />;

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      <FormField
        label="New password"
        error={errors.password?.message}
        required
        description={<PasswordChecklist password={password} rules={strongPasswordRules} />}
      >
        <PasswordInput autoComplete="new-password" maxLength={128} {...form.register('password')} />
      </FormField>
      <FormField label="Confirm new password" error={errors.confirmPassword?.message} required>
        <PasswordInput autoComplete="new-password" maxLength={128} {...form.register('confirmPassword')} />
      </FormField>
      <Button type="submit" size="lg" className="w-full" loading={reset.isPending}>
        {reset.isPending ? 'Updating password...' : 'Update password'}
      </Button>
      <p className="text-center text-sm text-muted-foreground">
        Remembered it?{' '}
        <Link to={paths.auth.login.getHref()} className={authLinkClasses}>
          Back to Sign In
        </Link>
      </p>
    </form>
  );
}
