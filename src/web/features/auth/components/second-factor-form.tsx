import { useState, type SubmitEvent } from 'react';
import { BACKUP_CODE_PATTERN, TOTP_CODE_PATTERN, TOTP_DIGITS, twoFactorMessages } from '#shared/two-factor.ts';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { ApiError, errorMessage } from '#web/lib/api.ts';
import { verifyBackupCode, verifyTotp } from '../api.ts';

type SecondFactorFormProps = {
  /** Called once the code opened the session. */
  onVerified: () => Promise<void> | void;
  /** Back to the password, with why, when the challenge ran out (better-auth keeps it ten minutes, five tries). */
  onRestart: (message: string) => void;
};

/**
 * The step after a right password for an account with a second factor: the authenticator app's code, or one of the
 * backup codes. The checks are plain patterns, so the sign-in page loads no validation library for it.
 */
export function SecondFactorForm({ onVerified, onRestart }: SecondFactorFormProps) {
  const [useBackupCode, setUseBackupCode] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [isBusy, setBusy] = useState(false);

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const entered = code.replaceAll(' ', '');
    if (!(useBackupCode ? BACKUP_CODE_PATTERN : TOTP_CODE_PATTERN).test(entered)) {
      setError(useBackupCode ? twoFactorMessages.backupCodeRequired : twoFactorMessages.codeRequired);
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await (useBackupCode ? verifyBackupCode(entered) : verifyTotp(entered));
      await onVerified();
    } catch (failure) {
      // A spent or expired challenge cannot take another code: the password comes first again.
      const isChallengeOver =
        failure instanceof ApiError &&
        ['INVALID_TWO_FACTOR_COOKIE', 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE'].includes(failure.code);
      if (isChallengeOver) onRestart(errorMessage(failure));
      else setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const switchKind = () => {
    setUseBackupCode(!useBackupCode);
    setCode('');
    setError(undefined);
  };

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      <p className="text-sm text-muted-foreground">
        {useBackupCode
          ? 'Enter one of the backup codes you saved when you set up two-factor sign-in. Each works once.'
          : `Enter the ${TOTP_DIGITS}-digit code your authenticator app shows for Virtual Help.`}
      </p>
      <FormField label={useBackupCode ? 'Backup code' : 'Authentication code'} error={error} required>
        <Input
          key={useBackupCode ? 'backup' : 'totp'}
          autoComplete="one-time-code"
          inputMode={useBackupCode ? 'text' : 'numeric'}
          maxLength={useBackupCode ? 11 : TOTP_DIGITS}
          autoFocus
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
      </FormField>
      <Button type="submit" size="lg" className="w-full" loading={isBusy}>
        Verify
      </Button>
      <Button type="button" variant="link" className="self-center" onClick={switchKind}>
        {useBackupCode ? 'Use the authenticator app' : 'Use a backup code instead'}
      </Button>
    </form>
  );
}
