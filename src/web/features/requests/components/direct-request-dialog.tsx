import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '#web/components/ui/dialog.tsx';
import { QueryError } from '#web/components/ui/query-error.tsx';
import { useTutorProfile } from '#web/features/tutors/api.ts';
import { RequestForm } from './request-form.tsx';

/**
 * "Ask {name} for help": the standard form addressed to one tutor, in one of their subjects (the server holds the
 * same rule). Opened from the tutor's page, and by "Ask {name} again" after a completed job.
 */
export function DirectRequestDialog({
  tutorId,
  subjectId,
  onClose,
}: {
  tutorId: string;
  subjectId?: string | undefined;
  onClose: () => void;
}) {
  const tutor = useTutorProfile(tutorId);
  const name = tutor.data?.username ?? 'a tutor';
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Ask {name} for help</DialogTitle>
          <DialogDescription>
            Only {name} sees this request. If they decline or do not answer within 24 hours, you can open it to all
            tutors of the subject.
          </DialogDescription>
        </DialogHeader>
        {tutor.isPending ? (
          <div className="flex flex-col gap-3">
            <span role="status" className="sr-only">
              Loading the tutor
            </span>
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-24 w-full" />
          </div>
        ) : tutor.isError ? (
          <QueryError title="Could not load the tutor" query={tutor} />
        ) : (
          <RequestForm
            directTutor={{
              id: tutor.data.id,
              username: tutor.data.username,
              subjectIds: tutor.data.specializations.map((subject) => subject.id),
              subjectId,
            }}
            onDone={onClose}
            onCancel={onClose}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}
