import { Link } from 'react-router';
import { paths } from '#shared/paths.ts';
import { Button } from '#web/components/ui/button.tsx';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#web/components/ui/dialog.tsx';

type DialogProps = { open: boolean; onOpenChange: (open: boolean) => void };

/** SPEC.md §8: the e-mail address turned out to be registered when the form was sent. */
function AccountExistsDialog({
  open,
  onOpenChange,
  email,
  onGoToSignIn,
  onUseDifferentEmail,
}: DialogProps & { email: string; onGoToSignIn: () => void; onUseDifferentEmail: () => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        onCloseAutoFocus={(event) => {
          // Back to the e-mail field, the thing to change, rather than the submit button.
          event.preventDefault();
          onUseDifferentEmail();
        }}
      >
        <DialogHeader>
          <DialogTitle>Account Already Exists</DialogTitle>
          <DialogDescription>
            An account with{' '}
            {email ? <strong className="font-semibold break-all text-foreground">{email}</strong> : 'this email'}{' '}
            already exists. Please sign in instead, or use a different e-mail address.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Use a different e-mail</Button>
          </DialogClose>
          <Button onClick={onGoToSignIn}>Go to Sign In</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** SPEC.md §8: the account could not be set up (a server failure while creating the profile). */
function ProfileCreationIssueDialog({ open, onOpenChange }: DialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Profile Creation Issue</DialogTitle>
          <DialogDescription>
            Your account could not be set up because of a problem on our side. Nothing was saved, so you can send the
            form again in a moment. If it keeps happening, please contact us.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button asChild variant="outline">
            <Link to={paths.contact.getHref()}>Contact us</Link>
          </Button>
          <DialogClose asChild>
            <Button>Back to the form</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

export type RegisterDialog = 'accountExists' | 'profileError';

/** The dialog a refused registration opens, if any: one part, so that its code arrives (or fails to) once. */
export function RegisterDialogs({
  dialog,
  onClose,
  email,
  onGoToSignIn,
  onUseDifferentEmail,
}: {
  dialog: RegisterDialog | null;
  onClose: () => void;
  email: string;
  onGoToSignIn: () => void;
  onUseDifferentEmail: () => void;
}) {
  const closeOnDismiss = (open: boolean) => {
    if (!open) onClose();
  };
  return (
    <>
      <AccountExistsDialog
        open={dialog === 'accountExists'}
        email={email}
        onOpenChange={closeOnDismiss}
        onGoToSignIn={onGoToSignIn}
        onUseDifferentEmail={onUseDifferentEmail}
      />
      <ProfileCreationIssueDialog open={dialog === 'profileError'} onOpenChange={closeOnDismiss} />
    </>
  );
}
