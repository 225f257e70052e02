import { useState, type SubmitEvent } from 'react';
import type { z } from 'zod';
import { disableTwoFactorSchema, generateBackupCodesSchema } from '#shared/schemas/two-factor.ts';
import { twoFactorMessages } from '#shared/two-factor.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { disableTwoFactor, generateBackupCodes } from '../../auth/api.ts';
import { BackupCodeList } from './backup-code-list.tsx';
import { AppCodeField, CurrentPasswordField } from './second-factor-fields.tsx';

type Refusal = { field: 'password' | 'code'; message: string };

/**
 * A form's state: what was refused (by the schema or the server), and whether it is being sent. The server's refusals
 * other than a wrong password are shown under the form's last field.
 */
function useCheckedSubmit<T>({
  schema,
  lastField,
  read,
  send,
}: {
  schema: z.ZodType<T>;
  lastField: Refusal['field'];
  read: () => unknown;
  send: (input: T) => Promise<void>;
}) {
  const [refusal, setRefusal] = useState<Refusal>();
  const [isBusy, setBusy] = useState(false);
  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = schema.safeParse(read());
    if (!parsed.success) {
      const [issue] = parsed.error.issues;
      setRefusal({ field: issue?.path[0] === 'code' ? 'code' : 'password', message: issue?.message ?? '' });
      return;
    }
    setRefusal(undefined);
    setBusy(true);
    try {
      await send(parsed.data);
    } catch (failure) {
      const message = errorMessage(failure);
      setRefusal({ field: message === twoFactorMessages.wrongPassword ? 'password' : lastField, message });
    } finally {
      setBusy(false);
    }
  };
  const errorOf = (field: Refusal['field']) => (refusal?.field === field ? refusal.message : undefined);
  return { onSubmit, errorOf, isBusy };
}

/** New backup codes for the password, shown this once; the earlier ones stop working. */
function NewBackupCodesForm() {
  const [password, setPassword] = useState('');
  const [codes, setCodes] = useState<string[]>();
  const { onSubmit, errorOf, isBusy } = useCheckedSubmit({
    schema: generateBackupCodesSchema,
    lastField: 'password',
    read: () => ({ password }),
    send: async (input) => {
      setCodes((await generateBackupCodes(input.password)).backupCodes);
      setPassword('');
    },
  });
  return (
    <section aria-label="New backup codes" className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold">New backup codes</h2>
      {codes ? (
        <>
          <Alert variant="success" role="status" title={twoFactorMessages.newBackupCodes}>
            <p>They are shown only now: keep them somewhere safe.</p>
          </Alert>
          <BackupCodeList codes={codes} />
          <Button variant="outline" className="self-start" onClick={() => setCodes(undefined)}>
            I have saved them
          </Button>
        </>
      ) : (
        <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
          <p className="text-sm text-muted-foreground">
            Used some, or lost them? Ten new codes replace the ones you have.
          </p>
          <CurrentPasswordField value={password} onChange={setPassword} error={errorOf('password')} />
          <Button type="submit" className="self-start" loading={isBusy}>
            Make new backup codes
          </Button>
        </form>
      )}
    </section>
  );
}

/** Turns two-factor sign-in off with the password and a code the app shows now (sub-admins only). */
function TurnOffForm({ onTurnedOff }: { onTurnedOff: () => Promise<void> }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const { onSubmit, errorOf, isBusy } = useCheckedSubmit({
    schema: disableTwoFactorSchema,
    lastField: 'code',
    read: () => ({ password, code: code.trim() }),
    send: async (input) => {
      await disableTwoFactor(input);
      await onTurnedOff();
    },
  });
  return (
    <section aria-label="Turn off two-factor sign-in" className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold">Turn off two-factor sign-in</h2>
      <p className="text-sm text-muted-foreground">Signing in then asks only for your password.</p>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
        <CurrentPasswordField value={password} onChange={setPassword} error={errorOf('password')} />
        <AppCodeField value={code} onChange={setCode} error={errorOf('code')} />
        <Button type="submit" variant="destructive" className="self-start" loading={isBusy}>
          Turn off two-factor sign-in
        </Button>
      </form>
    </section>
  );
}

/** Once two-factor sign-in is on: new backup codes, and turning it off for everyone but the super-admin. */
export function SecondFactorManagement({
  mayTurnOff,
  onTurnedOff,
}: {
  mayTurnOff: boolean;
  onTurnedOff: () => Promise<void>;
}) {
  return (
    <div className="flex flex-col gap-8">
      <NewBackupCodesForm />
      {mayTurnOff ? (
        <TurnOffForm onTurnedOff={onTurnedOff} />
      ) : (
        <p className="text-sm text-muted-foreground">{twoFactorMessages.superAdminKeepsIt}</p>
      )}
    </div>
  );
}
