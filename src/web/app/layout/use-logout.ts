import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { signOut } from '#web/lib/auth-client.ts';
import { paths } from '#shared/paths.ts';

/** Logout from the user menu: SPEC.md §4 and §8 wording. */
export function useLogout() {
  const navigate = useNavigate();
  const mutation = useMutation({
    mutationFn: signOut,
    onSuccess: async () => {
      toast.success('Logged out successfully');
      await navigate(paths.home.getHref());
    },
    onError: () => {
      toast.error('Failed to log out');
    },
  });
  return { logout: () => mutation.mutate(), isPending: mutation.isPending };
}
