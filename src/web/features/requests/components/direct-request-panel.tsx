import { Megaphone, Repeat } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '#shared/paths.ts';
import { isClosedForDisplay } from '#shared/rules/expiry.ts';
import type { RequestCard } from '#shared/schemas/requests.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { toast } from '#web/lib/toast.ts';
import { useOpenToAllTutors } from '../api.ts';
import { DirectRequestNote } from './request-display.tsx';

/**
 * A direct request on its offers page: who it went to, and once they declined or did not answer in 24 hours, the one
 * click that opens it to every tutor of its subject (everything written is kept; its 48 hours start again).
 */
export function DirectRequestPanel({ request }: { request: RequestCard }) {
  const open = useOpenToAllTutors();
  const direct = request.direct;
  if (!direct) return null;
  const canOpen =
    (direct.state === 'declined' || direct.state === 'unanswered') &&
    (request.status === 'open' || request.status === 'pending') &&
    !isClosedForDisplay(request);
  if (!canOpen) return <DirectRequestNote request={request} />;
  const name = direct.tutorName ?? 'The tutor';
  return (
    <Alert
      variant="warning"
      icon={<Megaphone aria-hidden="true" />}
      title={direct.state === 'declined' ? `${name} declined your request` : `${name} has not answered in 24 hours`}
    >
      <div className="flex flex-col gap-3">
        {direct.declineReason && <p className="break-words">Their reason: {direct.declineReason}</p>}
        <p>Open it to all {request.subjectName} tutors: everything you wrote is kept, and it stays open 48 hours.</p>
        <Button
          className="self-start"
          loading={open.isPending}
          onClick={() =>
            open.mutate(request.id, {
              onSuccess: (detail) =>
                toast.success('Request opened to all tutors', {
                  description: `${detail.notifiedCount} tutors were notified.`,
                }),
              onError: (error) => toast.error('Could not open the request', { description: errorMessage(error) }),
            })
          }
        >
          Open to all tutors
        </Button>
      </div>
    </Alert>
  );
}

/** "Ask {name} again": a direct request to the tutor of a completed job, in the same subject. */
export function AskAgainLink({
  tutorId,
  tutorName,
  subjectId,
}: {
  tutorId: string;
  tutorName: string;
  subjectId?: string;
}) {
  return (
    <Button asChild size="sm" variant="outline">
      <Link to={paths.student.askTutor.getHref(tutorId, subjectId)}>
        <Repeat aria-hidden="true" />
        Ask {tutorName} again
      </Link>
    </Button>
  );
}
