import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { changePasswordFormSchema, type ChangePasswordFormInput } from '#shared/schemas/account.ts';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { PasswordInput } from '#web/components/ui/password-input.tsx';
import { ApiError, errorMessage } from '#web/lib/api.ts';
import { applyFieldErrors } from '#web/lib/form-errors.ts';
import { toast } from '#web/lib/toast.ts';
import { useChangePassword } from '../api.ts';

/** Current password, then the new one twice; every other device is signed out. */
export function ChangePasswordForm() {
  const form = useForm<z.input<typeof changePasswordFormSchema>, unknown, ChangePasswordFormInput>({
    resolver: zodResolver(changePasswordFormSchema),
    mode: 'onTouched',
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { errors } = form.formState;
  const change = useChangePassword();

  const onSubmit = form.handleSubmit(({ currentPassword, newPassword }) =>
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          toast.success('Password changed', { description: 'Every other device has been signed out.' });
          form.reset();
        },
        onError: (error) => {
          if (applyFieldErrors(form.setError, error, ['currentPassword', 'newPassword'])) return;
          // better-auth's refusal of the current password names no field.
          if (error instanceof ApiError && error.code === 'INVALID_PASSWORD') {
            form.setError('currentPassword', { message: error.message }, { shouldFocus: true });
            return;
          }
          toast.error('Your password was not changed', { description: errorMessage(error) });
        },
      },
    ),
  );

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <FormField label="Current password" error={errors.currentPassword?.message} required>
        <PasswordInput autoComplete="current-password" maxLength={128} {...form.register('currentPassword')} />
      </FormField>
      <FormField
        label="New password"
        error={errors.newPassword?.message}
        required
        description="At least 8 characters, with an uppercase letter, a lowercase letter and a number."
      >
        <PasswordInput autoComplete="new-password" maxLength={128} {...form.register('newPassword')} />
      </FormField>
      <FormField label="Confirm new password" error={errors.confirmPassword?.message} required>
        <PasswordInput autoComplete="new-password" maxLength={128} {...form.register('confirmPassword')} />
      </FormField>
      <Button type="submit" className="self-start" loading={change.isPending}>
        {change.isPending ? 'Changing password...' : 'Change password'}
      </Button>
    </form>
  );
}
