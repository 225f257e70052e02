import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '#web/lib/toast.ts';
import type { z } from 'zod';
import type { forgotPasswordSchema, ForgotPasswordInput } from '#shared/schemas/auth.ts';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { ApiError } from '#web/lib/api.ts';
import { useRequestPasswordReset } from '../api.ts';
import { applyFieldErrors } from '#web/lib/form-errors.ts';
import { Form } from '#web/components/ui/form.tsx';
import { lazyZodResolver } from '#web/lib/lazy-zod-resolver.ts';
import { lazyWithPreload } from '#web/components/lazy-with-preload.tsx';

// The form's checks (zod and the schema) load as someone starts filling it in.
const forgotPasswordSchemaResolver = lazyZodResolver(
  async () => (await import('#shared/schemas/auth.ts')).forgotPasswordSchema,
);

// "Check your e-mail" follows a sent form: its dialog code loads as someone starts filling it in too.
const ResetLinkSentDialog = lazyWithPreload(
  async () => (await import('./reset-link-sent-dialog.tsx')).ResetLinkSentDialog,
  {
    fallback: null,
  },
);

function preloadFormParts() {
  forgotPasswordSchemaResolver.preload();
  ResetLinkSentDialog.preload();
}

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
  const [isDialogOpen, setDialogOpen] = useState(false);

  const onSubmit = form.handleSubmit((values) =>
    requestReset.mutate(values, {
      onSuccess: () => {
        setSentTo(values.email);
        setDialogOpen(true);
      },
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
      <Form noValidate onSubmit={onSubmit} onFocus={preloadFormParts} className="flex flex-col gap-5">
        <FormField label="Email" error={errors.email?.message} required>
          <Input type="email" autoComplete="email" inputMode="email" maxLength={254} {...form.register('email')} />
        </FormField>
        <Button type="submit" size="lg" className="w-full" loading={isSending}>
          {isSending ? 'Sending...' : 'Send reset link'}
        </Button>
      </Form>

      {/* Mounted from the first success on, so that it closes with its animation and hands focus back. */}
      {sentTo !== null && <ResetLinkSentDialog open={isDialogOpen} onOpenChange={setDialogOpen} email={sentTo} />}
    </>
  );
}
