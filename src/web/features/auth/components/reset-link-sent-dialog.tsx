import { MailCheck } from 'lucide-react';
import { Link } from 'react-router';
import { RESET_LINK_VALIDITY_MINUTES } from '#shared/constants.ts';
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

/** After "Send reset link": where the link went (if the account exists), and for how long it works. */
export function ResetLinkSentDialog({
  open,
  onOpenChange,
  email,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  email: string;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <div
          aria-hidden="true"
          className="flex size-12 items-center justify-center rounded-full bg-primary-soft text-primary-soft-foreground"
        >
          <MailCheck className="size-6" />
        </div>
        <DialogHeader>
          <DialogTitle>Check your e-mail</DialogTitle>
          <DialogDescription asChild>
            <div className="flex flex-col gap-2">
              <p>
                If an account exists for <strong className="font-semibold break-all text-foreground">{email}</strong>,
                we have sent it a link to reset your password.
              </p>
              <p>
                The link expires after {RESET_LINK_VALIDITY_MINUTES} minutes. If you don&apos;t see the e-mail, check
                your spam folder.
              </p>
            </div>
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Close</Button>
          </DialogClose>
          <Button asChild>
            <Link to={paths.auth.login.getHref()}>Back to Sign In</Link>
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
