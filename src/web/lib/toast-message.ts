import { toast } from './toast.ts';

/** "Title - text" messages of SPEC.md §5 become a toast title and description. */
export function toastMessage(message: string, kind: 'error' | 'success' = 'error') {
  const [title, ...rest] = message.split(' - ');
  const description = rest.join(' - ');
  toast[kind](title, description ? { description } : undefined);
}
