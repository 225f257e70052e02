import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  ACCOUNT_DELETION_GRACE_DAYS,
  deleteAccountSchema,
  type DeleteAccountInput,
} from '#shared/schemas/account-deletion.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { PasswordInput } from '#web/components/ui/password-input.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { applyFieldErrors } from '#web/lib/form-errors.ts';
import { useDeleteAccount } from '../api.ts';

/** "Delete my account": what happens, then the password; the sign-in page says how to restore it. */
export function DeleteAccount() {
  const form = useForm<z.input<typeof deleteAccountSchema>, unknown, DeleteAccountInput>({
    resolver: zodResolver(deleteAccountSchema),
    mode: 'onTouched',
    defaultValues: { password: '' },
  });
  const deletion = useDeleteAccount();
  const [refusal, setRefusal] = useState<string | null>(null);

  const onSubmit = form.handleSubmit((input) => {
    setRefusal(null);
    deletion.mutate(input, {
      onError: (error) => {
        if (!applyFieldErrors(form.setError, error, ['password'])) setRefusal(errorMessage(error));
      },
    });
  });

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <ul className="list-disc space-y-1 pl-5 text-sm text-muted-foreground">
        <li>You are signed out on every device at once, and other users no longer find you.</li>
        <li>Your open requests are closed and the offers you are waiting on are withdrawn.</li>
        <li>
          For {ACCOUNT_DELETION_GRACE_DAYS} days you can change your mind: sign in and choose &quot;Restore my
          account&quot;.
        </li>
        <li>
          Then your e-mail address, password, picture, profile, uploaded files and notifications are erased. Messages
          you sent stay in the other person&apos;s conversation and your reviews stay, shown from &quot;Deleted
          user&quot;; files you sent show as &quot;File removed&quot;.
        </li>
        <li>
          While a refund request or chargeback of yours is open, or money is held, waiting for you or owed, your account
          cannot be deleted yet.
        </li>
      </ul>
      {refusal && (
        <Alert variant="destructive" role="alert" title="Your account was not deleted">
          <p>{refusal}</p>
        </Alert>
      )}
      <FormField label="Current password" error={form.formState.errors.password?.message} required>
        <PasswordInput autoComplete="current-password" maxLength={128} {...form.register('password')} />
      </FormField>
      <Button type="submit" variant="destructive" className="self-start" loading={deletion.isPending}>
        {deletion.isPending ? 'Deleting...' : 'Delete my account'}
      </Button>
    </form>
  );
}
