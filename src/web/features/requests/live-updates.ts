import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { Role } from '#shared/constants.ts';
import { paths } from '#shared/paths.ts';
import { useSocketEvent } from '#web/lib/socket.ts';
import { toast } from '#web/lib/toast.ts';
import { requestsKeys } from './api.ts';

/** Tells a teacher about each new job matching their subjects, wherever they are in the app. */
export function useNewJobAlerts(role: Role) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useSocketEvent('job:new', ({ requestId }) => {
    if (role !== 'teacher') return;
    // The one place a new job refreshes the jobs list, on the jobs page or for the next visit: the list the toast's
    // View leads to must show it, even one fetched a moment ago.
    void queryClient.invalidateQueries({ queryKey: requestsKeys.jobsAll });
    toast('New Job Available!', {
      id: `job-${requestId}`,
      action: { label: 'View', onClick: () => void navigate(paths.teacher.jobs.getHref(requestId)) },
    });
  });
}
