import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { usePublicSettings } from '#web/lib/settings.ts';

/** The support address from the server's public settings, as a mailto link. */
export function SupportEmailLink() {
  const { settings, isPending } = usePublicSettings();
  if (isPending) return <Skeleton className="inline-block h-4 w-44 align-middle" />;
  return <a href={`mailto:${settings.supportEmail}`}>{settings.supportEmail}</a>;
}
