import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { adminMessages } from '#shared/schemas/admin.ts';
import { loginSchema, type LoginInput } from '#shared/schemas/auth.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardHeader } from '#web/components/ui/card.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { PasswordInput } from '#web/components/ui/password-input.tsx';
import { ApiError } from '#web/lib/api.ts';
import { notifyAuthChanged, signOut } from '#web/lib/auth-client.ts';
import { toastMessage } from '#web/lib/toast-message.ts';
import { signIn } from '../../auth/api.ts';
import { SecondFactorForm } from '../../auth/embeds.ts';
import { adminAccessQueryOptions } from '../api.ts';

type Values = z.input<typeof loginSchema>;

/**
 * SPEC.md §2 "Admin Login": signs in, then asks the server for the admin role. Anyone without one is signed out again
 * with one message for both cases, so the form does not tell which addresses are admins. An account with a second
 * factor gives the code between the two (decision 0034).
 */
export function AdminLoginForm() {
  const queryClient = useQueryClient();
  const form = useForm<Values, unknown, LoginInput>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors } = form.formState;
  const [isBusy, setBusy] = useState(false);
  const [needsCode, setNeedsCode] = useState(false);

  /** With a session open: in when the server confirms an admin role, signed out again when not. */
  const enterPanel = async () => {
    try {
      const access = await queryClient.query({ ...adminAccessQueryOptions, staleTime: 0 });
      if (!access) {
        await signOut();
        toastMessage(adminMessages.accessDenied);
        return;
      }
      toastMessage(adminMessages.accessGranted, 'success');
      await notifyAuthChanged();
    } catch {
      toastMessage(adminMessages.checkFailed);
    }
  };

  const onSubmit = form.handleSubmit(async (values) => {
    setBusy(true);
    try {
      const answer = await signIn(values);
      if (answer?.twoFactorRedirect) setNeedsCode(true);
      else await enterPanel();
    } catch (error) {
      if (error instanceof ApiError && (error.isNetworkError || error.status >= 500))
        toastMessage(adminMessages.checkFailed);
      else toastMessage(adminMessages.accessDenied);
    } finally {
      setBusy(false);
    }
  });

  const restart = (message: string) => {
    toastMessage(message);
    form.resetField('password');
    setNeedsCode(false);
  };

  return (
    <Card className="mx-auto w-full max-w-md">
      <CardHeader className="items-center text-center">
        <div
          aria-hidden="true"
          className="flex size-12 items-center justify-center rounded-full bg-primary-soft text-primary-soft-foreground"
        >
          <ShieldCheck className="size-6" />
        </div>
        <h1 className="text-2xl font-bold tracking-tight">Admin Login</h1>
      </CardHeader>
      <CardContent>
        {needsCode ? (
          <SecondFactorForm onVerified={enterPanel} onRestart={restart} />
        ) : (
          <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
            <FormField label="Email" error={errors.email?.message} required>
              <Input type="email" autoComplete="email" inputMode="email" maxLength={254} {...form.register('email')} />
            </FormField>
            <FormField label="Password" error={errors.password?.message} required>
              <PasswordInput autoComplete="current-password" maxLength={128} {...form.register('password')} />
            </FormField>
            <Button type="submit" size="lg" className="w-full" loading={isBusy}>
              Login to Admin Panel
            </Button>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
