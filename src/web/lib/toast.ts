import type { toast as sonnerToast } from 'sonner';
import { loadOnce } from './load-once.ts';

// Notices (sonner) are not part of any page's first download: the notification area mounts after the first render
// and brings their code. A notice asked for before then is shown once it has arrived, in the order asked.
type Toast = typeof sonnerToast;
type Kind = 'error' | 'success' | 'info' | 'warning';

const loadToast = loadOnce(async () => (await import('sonner')).toast);
/** Runs `show` once the code is there; if it could not be fetched, the notice is dropped and the next one tries again. */
const withToast = (show: (toast: Toast) => unknown) =>
  void loadToast()
    .then(show)
    .catch(() => undefined);

type Message = Parameters<Toast['error']>[0];
type Options = Parameters<Toast['error']>[1];

const showKind = (kind: Kind) => (message: Message, options?: Options) =>
  withToast((toast) => toast[kind](message, options));

export const toast = Object.assign((...args: Parameters<Toast>) => withToast((toast) => toast(...args)), {
  error: showKind('error'),
  success: showKind('success'),
  info: showKind('info'),
  warning: showKind('warning'),
  dismiss: (id?: string | number) => withToast((toast) => toast.dismiss(id)),
});
