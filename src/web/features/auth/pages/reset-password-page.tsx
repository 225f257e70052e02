import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { AuthPageShell } from '../components/auth-page-shell.tsx';
import { ResetLinkProblem, ResetPasswordForm, type ResetLinkState } from '../components/reset-password-form.tsx';

/**
 * Reached from the reset mail: the server checks the link and lands here with `?token=…`,
 * or with `?error=INVALID_TOKEN` when the link is used up or expired.
 */
export function ResetPasswordPage() {
  useDocumentTitle('Set a new password');
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const [refusedToken, setRefusedToken] = useState<string | null>(null);

  const state: ResetLinkState =
    searchParams.has('error') || (token !== null && token === refusedToken) ? 'invalid' : token ? 'valid' : 'unknown';

  return (
    <AuthPageShell
      title="Set a new password"
      description={state === 'valid' ? 'Choose a new password for your Virtual Help account.' : undefined}
    >
      {state === 'valid' && token ? (
        <ResetPasswordForm key={token} token={token} onInvalidToken={() => setRefusedToken(token)} />
      ) : (
        <ResetLinkProblem state={state === 'valid' ? 'unknown' : state} />
      )}
    </AuthPageShell>
  );
}
