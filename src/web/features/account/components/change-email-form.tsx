import { zodResolver } from '@hookform/resolvers/zod';
import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { accountMessages, changeEmailSchema, type ChangeEmailInput } from '#shared/schemas/account.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { PasswordInput } from '#web/components/ui/password-input.tsx';
import { ApiError, errorMessage } from '#web/lib/api.ts';
import { applyFieldErrors } from '#web/lib/form-errors.ts';
import { useRequestEmailChange } from '../api.ts';

/** New address and current password; the address changes once the link mailed to the new address is opened. */
export function ChangeEmailForm({ currentEmail }: { currentEmail: string }) {
  const form = useForm<z.input<typeof changeEmailSchema>, unknown, ChangeEmailInput>({
    resolver: zodResolver(changeEmailSchema),
    mode: 'onTouched',
    defaultValues: { newEmail: '', password: '' },
  });
  const { errors } = form.formState;
  const request = useRequestEmailChange();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);

  const onSubmit = form.handleSubmit((input) => {
    setRefusal(null);
    request.mutate(input, {
      onSuccess: () => {
        setSentTo(input.newEmail);
        form.reset();
      },
      onError: (error) => {
        if (applyFieldErrors(form.setError, error, ['newEmail', 'password'])) return;
        const takenMessage = error instanceof ApiError ? error.fields?.newEmail : undefined;
        if (takenMessage) form.setError('newEmail', { message: takenMessage }, { shouldFocus: true });
        else setRefusal(errorMessage(error));
      },
    });
  });

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <p className="text-sm text-muted-foreground">
        Current address: <span className="font-medium break-all text-foreground">{currentEmail}</span>
      </p>
      {sentTo && (
        <Alert variant="success" role="status" icon={<MailCheck aria-hidden="true" />} title="Check your inbox">
          <p>
            {accountMessages.emailChangeSent} <span className="break-all">({sentTo})</span>
          </p>
        </Alert>
      )}
      {refusal && (
        <Alert variant="destructive" role="alert" title="Your address was not changed">
          <p>{refusal}</p>
        </Alert>
      )}
      <FormField label="New e-mail address" error={errors.newEmail?.message} required>
        <Input type="email" autoComplete="email" maxLength={254} {...form.register('newEmail')} />
      </FormField>
      <FormField label="Current password" error={errors.password?.message} required>
        <PasswordInput autoComplete="current-password" maxLength={128} {...form.register('password')} />
      </FormField>
      <Button type="submit" className="self-start" loading={request.isPending}>
        {request.isPending ? 'Sending link...' : 'Change e-mail'}
      </Button>
    </form>
  );
}
