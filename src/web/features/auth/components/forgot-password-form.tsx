import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import type { z } from 'zod';
import { RESET_LINK_VALIDITY_MINUTES } from '#shared/constants.ts';
import type { forgotPasswordSchema, ForgotPasswordInput } from '#shared/schemas/auth.ts';
import { paths } from '#shared/paths.ts';
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
import { Input } from '#web/components/ui/input.tsx';
import { ApiError } from '#web/lib/api.ts';
import { useRequestPasswordReset } from '../api.ts';
import { applyFieldErrors } from '#web/lib/form-errors.ts';
import { Form } from '#web/components/ui/form.tsx';
import { lazyZodResolver } from '#web/lib/lazy-zod-resolver.ts';

// The form's checks (zod and the schema) load as someone starts filling it in.
const forgotPasswordSchemaResolver = lazyZodResolver(
  async () => (await import('#shared/schemas/auth.ts')).forgotPasswordSchema,
);

type ForgotPasswordValues = z.input<typeof forgotPasswordSchema>;

const FAILURE_MESSAGE = 'Failed to send reset instructions. Please try again.';

export function ForgotPasswordForm() {
  const form = useForm<ForgotPasswordValues, unknown, ForgotPasswordInput>({
    resolver: forgotPasswordSchemaResolver,
    defaultValues: { email: '' },
  });
  const { errors } = form.formState;
  const requestReset = useRequestPasswordReset();
  const [sentTo, setSentTo] = useState<string | null>(null);

  const onSubmit = form.handleSubmit((values) =>
    requestReset.mutate(values, {
      onSuccess: () => setSentTo(values.email),
      onError: (error) => {
        if (applyFieldErrors(form.setError, error, ['email'])) return;
        // A rate limit says why; anything else is SPEC.md's one message.
        const description = error instanceof ApiError && error.status === 429 ? error.message : undefined;
        toast.error(FAILURE_MESSAGE, description ? { description } : undefined);
      },
    }),
  );

  // isSubmitting covers the wait for the form's checks to arrive, so a second press sends nothing twice.
  const isSending = form.formState.isSubmitting || requestReset.isPending;
  return (
    <>
      <Form
        noValidate
        onSubmit={onSubmit}
        onFocus={forgotPasswordSchemaResolver.preload}
        className="flex flex-col gap-5"
      >
        <FormField label="Email" error={errors.email?.message} required>
          <Input type="email" autoComplete="email" inputMode="email" maxLength={254} {...form.register('email')} />
        </FormField>
        <Button type="submit" size="lg" className="w-full" loading={isSending}>
          {isSending ? 'Sending...' : 'Send reset link'}
        </Button>
      </Form>

      <Dialog
        open={sentTo !== null}
        onOpenChange={(open) => {
          if (!open) setSentTo(null);
        }}
      >
        <DialogContent>
          <div
            aria-hidden="true"
            className="flex size-12 items-center justify-center rounded-full bg-primary-soft text-primary-soft-foreground"
          >
            <MailCheck className="size-6" />
          </div>
          <DialogHeader>
            <DialogTitle>Check your e-mail</DialogTitle>
            <DialogDescription asChild>
              <div className="flex flex-col gap-2">
                <p>
                  If an account exists for <strong className="font-semibold break-all text-foreground">{sentTo}</strong>
                  , we have sent it a link to reset your password.
                </p>
                <p>
                  The link expires after {RESET_LINK_VALIDITY_MINUTES} minutes. If you don&apos;t see the e-mail, check
                  your spam folder.
                </p>
              </div>
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Close</Button>
            </DialogClose>
            <Button asChild>
              <Link to={paths.auth.login.getHref()}>Back to Sign In</Link>
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
