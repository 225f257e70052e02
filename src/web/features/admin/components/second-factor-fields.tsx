import { TOTP_DIGITS } from '#shared/two-factor.ts';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { PasswordInput } from '#web/components/ui/password-input.tsx';

// The fields that confirm a change to an admin's second factor.

type FieldProps = { value: string; onChange: (value: string) => void; error: string | undefined };

/** The account's password, asked again. */
export function CurrentPasswordField({ value, onChange, error }: FieldProps) {
  return (
    <FormField label="Password" error={error} required>
      <PasswordInput
        autoComplete="current-password"
        maxLength={128}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </FormField>
  );
}

/** The code the authenticator app shows now. */
export function AppCodeField({ value, onChange, error }: FieldProps) {
  return (
    <FormField label="Code from the app" error={error} required>
      <Input
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={TOTP_DIGITS}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </FormField>
  );
}
