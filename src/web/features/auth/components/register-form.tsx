import { useId, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { paths } from '#shared/paths.ts';
import { MINIMUM_AGE } from '#shared/constants.ts';
import { AvatarPicker } from '#web/components/avatar-picker.tsx';
import { SubjectPicker } from '#web/components/subject-picker.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { PasswordInput } from '#web/components/ui/password-input.tsx';
import { RadioGroup, RadioGroupItem } from '#web/components/ui/radio-group.tsx';
import { ApiError } from '#web/lib/api.ts';
import { CONNECTION_ERROR_MESSAGE } from '#web/page-contract/connection-error.ts';
import { applyFieldErrors } from '#web/lib/form-errors.ts';
import { avatarProblem } from '#shared/rules/avatar.ts';
import { useSubjects } from '#web/lib/subjects.ts';
import { useRegister } from '../api.ts';
import { authLinkClasses } from './auth-page-shell.tsx';
import { AvailabilityStatus } from './availability-status.tsx';
import { basicPasswordRules, PasswordChecklist } from './password-checklist.tsx';
import { ConsentCheckbox, NewTabLink, roleOptions } from './register-fields.tsx';
import { fieldNames, resolver, roleFromSearch, type ResolverContext } from './register-form-checks.ts';
import type { RegisterFormOutput, RegisterFormValues } from './register-form-schema.ts';
import { useAvailability } from './use-availability.ts';
import { Form } from '#web/components/ui/form.tsx';
import { lazyWithPreload } from '#web/components/lazy-with-preload.tsx';
import type { RegisterDialog } from './register-dialogs.tsx';

// The dialogs follow a refused registration: their code loads as someone starts filling the form in.
const RegisterDialogs = lazyWithPreload(async () => (await import('./register-dialogs.tsx')).RegisterDialogs, {
  fallback: null,
});

function preloadFormParts() {
  resolver.preload();
  RegisterDialogs.preload();
}

export function RegisterForm() {
  const baseId = useId();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const registerAccount = useRegister();
  const [dialog, setDialog] = useState<RegisterDialog | null>(null);
  // Mounted from the first one on, so that a dialog closes with its animation and hands focus back.
  const [hasShownDialog, setHasShownDialog] = useState(false);
  if (dialog && !hasShownDialog) setHasShownDialog(true);
  const [isLeaving, setLeaving] = useState(false);

  const { data: subjects = [] } = useSubjects();
  const form = useForm<RegisterFormValues, ResolverContext, RegisterFormOutput>({
    resolver,
    context: { subjects },
    mode: 'onTouched',
    defaultValues: {
      name: '',
      email: '',
      password: '',
      role: roleFromSearch(searchParams.get('role')),
      specializations: [],
      acceptTerms: false,
      acceptPrivacy: false,
      confirmAge: false,
      avatar: undefined,
    },
  });
  const { errors } = form.formState;
  const [name, email, password, role] = useWatch({
    control: form.control,
    name: ['name', 'email', 'password', 'role'],
  });

  const username = useAvailability('username', name);
  const emailCheck = useAvailability('email', email);
  const isUnavailable = username.state === 'unavailable' || emailCheck.state === 'unavailable';

  const onSubmit = form.handleSubmit(async (values) => {
    // SPEC.md §5: the availability checks are repeated on submit.
    const [nameAnswer, emailAnswer] = await Promise.all([username.recheck(), emailCheck.recheck()]);
    if (nameAnswer && !nameAnswer.available) {
      form.setFocus('name');
      return;
    }
    if (emailAnswer && !emailAnswer.available) {
      // Taken since the live check said otherwise: the same dialog as a refusal by the server.
      setDialog('accountExists');
      return;
    }

    registerAccount.mutate(values, {
      onSuccess: ({ requiresEmailConfirmation, user }) => {
        setLeaving(true);
        toast.success('Account created', {
          description: requiresEmailConfirmation
            ? `Please check your e-mail (${user.email}) and open the confirmation link, then sign in.`
            : 'You can sign in now.',
        });
        void navigate(paths.auth.login.getHref(), { state: { email: user.email } });
      },
      onError: (error) => {
        if (!(error instanceof ApiError)) {
          toast.error('Error', { description: 'Registration failed. Please try again.' });
          return;
        }
        if (error.code === 'EMAIL_TAKEN') {
          emailCheck.markUnavailable(error.fields?.email ?? error.message);
          setDialog('accountExists');
          return;
        }
        if (error.code === 'USERNAME_TAKEN') {
          username.markUnavailable(error.fields?.name ?? error.message);
          form.setFocus('name');
          return;
        }
        if (error.status >= 500) {
          setDialog('profileError');
          return;
        }
        if (applyFieldErrors(form.setError, error, fieldNames)) return;
        if (error.isNetworkError) {
          toast.error('Error', { description: CONNECTION_ERROR_MESSAGE });
        } else if (error.status === 429) {
          toast.error('Error', { description: error.message });
        } else {
          toast.error('Error', { description: 'Registration failed. Please try again.' });
        }
      },
    });
  });

  const isBusy = form.formState.isSubmitting || registerAccount.isPending || isLeaving;
  const goToSignIn = () => void navigate(paths.auth.login.getHref(), { state: { email: form.getValues('email') } });

  return (
    <>
      <Form noValidate onSubmit={onSubmit} onFocus={preloadFormParts} className="flex flex-col gap-6">
        <FormField
          label="Username"
          error={errors.name?.message}
          required
          description={
            <div className="flex flex-col gap-1.5">
              <p>Only lowercase letters and numbers allowed, no spaces or special characters</p>
              <AvailabilityStatus state={username.state} message={username.message} />
            </div>
          }
        >
          <Input
            autoComplete="username"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            maxLength={30}
            aria-invalid={errors.name || username.state === 'unavailable' ? true : undefined}
            {...form.register('name')}
          />
        </FormField>

        <FormField
          label="Email"
          error={errors.email?.message}
          required
          description={
            <div className="flex flex-col gap-1.5">
              <AvailabilityStatus state={emailCheck.state} message={emailCheck.message} />
              {emailCheck.state === 'unavailable' && (
                <p>
                  Is it yours?{' '}
                  <Link to={paths.auth.login.getHref()} state={{ email }} className={authLinkClasses}>
                    Sign in instead
                  </Link>
                </p>
              )}
            </div>
          }
        >
          <Input
            type="email"
            autoComplete="email"
            inputMode="email"
            maxLength={254}
            aria-invalid={errors.email || emailCheck.state === 'unavailable' ? true : undefined}
            {...form.register('email')}
          />
        </FormField>

        <FormField
          label="Password"
          error={errors.password?.message}
          required
          description={<PasswordChecklist password={password} rules={basicPasswordRules} />}
        >
          <PasswordInput autoComplete="new-password" maxLength={128} {...form.register('password')} />
        </FormField>

        <Controller
          control={form.control}
          name="role"
          render={({ field }) => (
            <fieldset className="flex flex-col gap-3">
              <legend className="mb-3 text-sm font-medium">I am a</legend>
              <RadioGroup
                value={field.value}
                onValueChange={(value) => {
                  field.onChange(value);
                  if (value !== 'teacher') form.clearErrors('specializations');
                }}
                className="grid-cols-1 sm:grid-cols-2"
              >
                {roleOptions.map(({ value, label, text, icon: Icon }) => {
                  const itemId = `${baseId}-role-${value}`;
                  return (
                    <div
                      key={value}
                      className="relative flex items-start gap-3 rounded-lg border p-4 transition-colors has-data-[state=checked]:border-primary has-data-[state=checked]:bg-primary-soft/60"
                    >
                      <RadioGroupItem
                        id={itemId}
                        value={value}
                        className="mt-0.5"
                        aria-describedby={`${itemId}-text`}
                      />
                      <div className="flex min-w-0 flex-1 flex-col gap-1">
                        <Label
                          htmlFor={itemId}
                          className="cursor-pointer after:absolute after:inset-0 after:content-['']"
                        >
                          <Icon aria-hidden="true" className="size-4 text-primary" />
                          {label}
                        </Label>
                        <p id={`${itemId}-text`} className="text-sm text-muted-foreground">
                          {text}
                        </p>
                      </div>
                    </div>
                  );
                })}
              </RadioGroup>
            </fieldset>
          )}
        />

        {role === 'teacher' && (
          <Controller
            control={form.control}
            name="specializations"
            render={({ field, fieldState }) => (
              <div className="rounded-lg border bg-surface p-4">
                <SubjectPicker
                  ref={field.ref}
                  value={field.value}
                  onChange={field.onChange}
                  error={fieldState.error?.message}
                />
              </div>
            )}
          />
        )}

        <Controller
          control={form.control}
          name="avatar"
          render={({ field, fieldState }) => (
            <FormField
              label="Profile picture (optional)"
              error={fieldState.error?.message}
              description="JPG, PNG or WebP, up to 5 MB."
            >
              <AvatarPicker
                ref={field.ref}
                displayName={name}
                file={field.value}
                isFileValid={field.value ? avatarProblem(field.value) === null : false}
                onFileChange={(file) => {
                  field.onChange(file);
                  void form.trigger('avatar');
                }}
                onBlur={field.onBlur}
              />
            </FormField>
          )}
        />

        <div className="flex flex-col gap-4">
          <Controller
            control={form.control}
            name="acceptTerms"
            render={({ field, fieldState }) => (
              <ConsentCheckbox
                id={`${baseId}-terms`}
                ref={field.ref}
                checked={field.value}
                onCheckedChange={field.onChange}
                onBlur={field.onBlur}
                error={fieldState.error?.message}
              >
                I accept the <NewTabLink to={paths.terms.getHref()}>Terms and Conditions</NewTabLink>
              </ConsentCheckbox>
            )}
          />
          <Controller
            control={form.control}
            name="acceptPrivacy"
            render={({ field, fieldState }) => (
              <ConsentCheckbox
                id={`${baseId}-privacy`}
                ref={field.ref}
                checked={field.value}
                onCheckedChange={field.onChange}
                onBlur={field.onBlur}
                error={fieldState.error?.message}
              >
                I accept the <NewTabLink to={paths.privacyPolicy.getHref()}>Privacy Policy</NewTabLink>
              </ConsentCheckbox>
            )}
          />
          <Controller
            control={form.control}
            name="confirmAge"
            render={({ field, fieldState }) => (
              <ConsentCheckbox
                id={`${baseId}-age`}
                ref={field.ref}
                checked={field.value}
                onCheckedChange={field.onChange}
                onBlur={field.onBlur}
                error={fieldState.error?.message}
              >
                I am at least {MINIMUM_AGE} years old
              </ConsentCheckbox>
            )}
          />
        </div>

        <div className="flex flex-col gap-2">
          <Button type="submit" size="lg" className="w-full" loading={isBusy} disabled={isUnavailable}>
            {isBusy ? 'Creating account...' : 'Create account'}
          </Button>
          {isUnavailable && (
            <p className="text-center text-sm text-muted-foreground">
              {username.state === 'unavailable'
                ? 'Choose a different username to continue.'
                : 'Use a different e-mail address, or sign in instead.'}
            </p>
          )}
        </div>
      </Form>

      {hasShownDialog && (
        <RegisterDialogs
          dialog={dialog}
          onClose={() => setDialog(null)}
          email={email}
          onGoToSignIn={goToSignIn}
          onUseDifferentEmail={() => form.setFocus('email', { shouldSelect: true })}
        />
      )}
    </>
  );
}
