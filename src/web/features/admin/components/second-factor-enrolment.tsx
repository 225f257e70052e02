import { useState, type ReactNode, type SubmitEvent } from 'react';
import { encode } from 'uqr';
import type { TwoFactorEnrolment } from '#shared/schemas/two-factor.ts';
import { TOTP_CODE_PATTERN, twoFactorMessages } from '#shared/two-factor.ts';
import { Button } from '#web/components/ui/button.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { enableTwoFactor, verifyTotp } from '../../auth/api.ts';
import { BackupCodeList } from './backup-code-list.tsx';
import { AppCodeField, CurrentPasswordField } from './second-factor-fields.tsx';

/** The otpauth:// address as a QR code, drawn as one SVG path (no script or inline style the page's CSP refuses). */
function QrCode({ text }: { text: string }) {
  const { data, size } = encode(text, { ecc: 'M', border: 2 });
  const path = data
    .flatMap((row, y) => row.map((dark, x) => (dark ? `M${x} ${y}h1v1h-1z` : '')))
    .filter(Boolean)
    .join('');
  return (
    <svg
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label="QR code for your authenticator app"
      shapeRendering="crispEdges"
      className="size-48 rounded-md bg-white"
    >
      <path d={path} fill="#000" />
    </svg>
  );
}

/** The key of the otpauth:// address in groups of four, as authenticator apps take it by hand. */
const manualKeyOf = (totpURI: string) =>
  (new URL(totpURI).searchParams.get('secret') ?? '').match(/.{1,4}/g)?.join(' ') ?? '';

function Step({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/**
 * Turns on two-factor sign-in in three steps: the password (better-auth asks for it), then the QR code and its key
 * with a code from the app to confirm, then the backup codes, shown this once.
 */
export function SecondFactorEnrolment({
  onStarted,
  onDone,
}: {
  /** The password was right: the page keeps the enrolment shown until its backup codes were seen. */
  onStarted: () => void;
  /** The backup codes were seen. */
  onDone: () => Promise<void> | void;
}) {
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment>();
  const [isConfirmed, setConfirmed] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const [isBusy, setBusy] = useState(false);

  const submit = (check: (entered: string) => string | undefined, send: (entered: string) => Promise<void>) => {
    return async (event: SubmitEvent<HTMLFormElement>) => {
      event.preventDefault();
      const entered = value.trim();
      const refusal = check(entered);
      setError(refusal);
      if (refusal) return;
      setBusy(true);
      try {
        await send(entered);
      } catch (failure) {
        setError(errorMessage(failure));
      } finally {
        setBusy(false);
      }
    };
  };

  if (!enrolment) {
    const onSubmit = submit(
      (password) => (password ? undefined : twoFactorMessages.passwordRequired),
      async (password) => {
        const started = await enableTwoFactor(password);
        // Cleared in the same render as the step changes: a clear that came later would wipe a code typed meanwhile.
        setValue('');
        setEnrolment(started);
        onStarted();
      },
    );
    return (
      <Step title="Confirm your password">
        <p className="text-sm text-muted-foreground">
          Two-factor sign-in asks for a code from an authenticator app on your phone after your password.
        </p>
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <CurrentPasswordField value={value} onChange={setValue} error={error} />
          <Button type="submit" className="self-start" loading={isBusy}>
            Continue
          </Button>
        </form>
      </Step>
    );
  }

  if (!isConfirmed) {
    const onSubmit = submit(
      (code) => (TOTP_CODE_PATTERN.test(code) ? undefined : twoFactorMessages.codeRequired),
      async (code) => {
        await verifyTotp(code);
        setValue('');
        setConfirmed(true);
      },
    );
    return (
      <Step title="Scan the code with your authenticator app">
        <QrCode text={enrolment.totpURI} />
        <p className="text-sm text-muted-foreground">
          Cannot scan it? Enter this key in the app instead:{' '}
          <code className="font-mono break-all text-foreground">{manualKeyOf(enrolment.totpURI)}</code>
        </p>
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <AppCodeField value={value} onChange={setValue} error={error} />
          <Button type="submit" className="self-start" loading={isBusy}>
            Turn on two-factor sign-in
          </Button>
        </form>
      </Step>
    );
  }

  return (
    <Step title="Save your backup codes">
      <p className="text-sm text-muted-foreground">
        {twoFactorMessages.enrolled} Without your phone, each of these codes signs you in once. They are shown only now:
        keep them somewhere safe.
      </p>
      <BackupCodeList codes={enrolment.backupCodes} />
      <Button className="self-start" onClick={() => void onDone()}>
        I have saved them
      </Button>
    </Step>
  );
}
