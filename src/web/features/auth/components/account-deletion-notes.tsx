import { CircleCheck, RotateCcw } from 'lucide-react';
import { ACCOUNT_DELETION_GRACE_DAYS } from '#shared/constants.ts';
import type { LoginInput } from '#shared/schemas/auth.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { toast } from '#web/lib/toast.ts';
import { useRestoreAccount } from '../api.ts';

/** Shown on the sign-in page right after "Delete my account" (?accountDeleted=1). */
export function AccountDeletedNote() {
  return (
    <Alert
      variant="success"
      role="status"
      icon={<CircleCheck aria-hidden="true" />}
      title="Your account is being deleted"
    >
      <p>
        You have been signed out everywhere. Your account will be erased in {ACCOUNT_DELETION_GRACE_DAYS} days; until
        then you can sign in here and choose &quot;Restore my account&quot;.
      </p>
    </Alert>
  );
}

/** A sign-in refused because the account is being deleted: the same address and password restore it. */
export function RestoreAccountOffer({
  message,
  credentials,
  onRestored,
}: {
  message: string;
  credentials: LoginInput;
  onRestored: () => void;
}) {
  const restore = useRestoreAccount();
  const restoreAccount = () =>
    restore.mutate(credentials, {
      onSuccess: (answer) => {
        toast.success(answer.message);
        onRestored();
      },
      onError: (error) => toast.error('Your account was not restored', { description: errorMessage(error) }),
    });
  return (
    <Alert
      role="alert"
      variant="warning"
      icon={<RotateCcw aria-hidden="true" />}
      title="Your account can still be restored"
    >
      <p>{message}</p>
      <Button
        variant="outline"
        size="sm"
        className="mt-3 bg-background/60"
        loading={restore.isPending}
        onClick={restoreAccount}
      >
        Restore my account
      </Button>
    </Alert>
  );
}
