import type { toast as sonnerToast } from 'sonner';

// Notices (sonner) are not part of any page's first download: the notification area mounts after the first render
// and brings their code. A notice asked for before then is shown once it has arrived, in the order asked.
type Toast = typeof sonnerToast;
type Kind = 'error' | 'success' | 'info' | 'warning';

let loading: Promise<Toast> | undefined;
const loadToast = () => (loading ??= import('sonner').then((module) => module.toast));

type Message = Parameters<Toast['error']>[0];
type Options = Parameters<Toast['error']>[1];

const showKind = (kind: Kind) => (message: Message, options?: Options) =>
  void loadToast().then((toast) => toast[kind](message, options));

export const toast = Object.assign((...args: Parameters<Toast>) => void loadToast().then((toast) => toast(...args)), {
  error: showKind('error'),
  success: showKind('success'),
  info: showKind('info'),
  warning: showKind('warning'),
  dismiss: (id?: string | number) => void loadToast().then((toast) => toast.dismiss(id)),
});
