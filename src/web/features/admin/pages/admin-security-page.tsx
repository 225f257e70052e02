import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { twoFactorMessages } from '#shared/two-factor.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Card, CardContent } from '#web/components/ui/card.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { notifyAuthChanged } from '#web/lib/auth-client.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { adminAccessQueryOptions, useAdminAccess } from '../api.ts';
import { SecondFactorEnrolment } from '../components/second-factor-enrolment.tsx';
import { SecondFactorManagement } from '../components/second-factor-management.tsx';

/**
 * Two-Factor Sign-In: every admin may turn it on here, make new backup codes, and (but the super-admin) turn it off;
 * the super-admin is sent here until it is on.
 */
export function AdminSecurityPage() {
  useDocumentTitle('Two-Factor Sign-In');
  const queryClient = useQueryClient();
  const access = useAdminAccess(true).data;
  // Kept on the enrolment from its QR code until its backup codes were seen: the access answered anew once the code is
  // confirmed says it is on, and may arrive before the confirmation's own answer.
  const [isEnrolling, setEnrolling] = useState(false);
  if (!access) return null;

  // Turning it on or off replaced the session: the page learns the new one (and the panel opens or stays open).
  const refreshAccess = async () => {
    await queryClient.invalidateQueries({ queryKey: adminAccessQueryOptions.queryKey });
    await notifyAuthChanged();
  };
  const finish = async () => {
    setEnrolling(false);
    await refreshAccess();
  };

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Two-Factor Sign-In" />
      {access.twoFactorEnabled && !isEnrolling ? (
        <>
          <Alert variant="success" role="status" title={twoFactorMessages.enrolled}>
            <p>
              Signing in asks for a code from your authenticator app, or one of your backup codes, after the password.
            </p>
          </Alert>
          <Card>
            <CardContent>
              <SecondFactorManagement mayTurnOff={!access.isSuperAdmin} onTurnedOff={refreshAccess} />
            </CardContent>
          </Card>
        </>
      ) : (
        <>
          {access.twoFactorRequired && !isEnrolling && (
            <Alert variant="warning" role="alert" title={twoFactorMessages.required} />
          )}
          <Card>
            <CardContent>
              <SecondFactorEnrolment onStarted={() => setEnrolling(true)} onDone={finish} />
            </CardContent>
          </Card>
        </>
      )}
    </div>
  );
}
