import { Heart } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { useSession } from '#web/lib/auth-client.ts';
import { errorMessage } from '#web/lib/api.ts';
import { toast } from '#web/lib/toast.ts';
import { cn } from '#web/lib/utils.ts';
import { useSavedTutorIds, useToggleSavedTutor } from '../api.ts';

/** The heart on a tutor's card and page: students save the tutor for /tutors/saved; others see none. */
export function SaveTutorButton({
  tutorId,
  tutorName,
  className,
}: {
  tutorId: string;
  tutorName: string;
  className?: string;
}) {
  const { user } = useSession();
  const isStudent = user?.role === 'student';
  const saved = useSavedTutorIds({ enabled: isStudent });
  const toggle = useToggleSavedTutor();
  if (!isStudent || !saved.data) return null;
  const isSaved = saved.data.has(tutorId);
  return (
    <Button
      type="button"
      variant="outline"
      size="icon"
      aria-pressed={isSaved}
      aria-label={`Save ${tutorName}`}
      title={isSaved ? 'Saved' : 'Save'}
      className={cn('relative z-10', className)}
      onClick={() =>
        toggle.mutate(
          { tutorId, save: !isSaved },
          { onError: (error) => toast.error('Could not save the tutor', { description: errorMessage(error) }) },
        )
      }
    >
      <Heart aria-hidden="true" className={cn(isSaved && 'fill-red-500 text-red-500')} />
    </Button>
  );
}
