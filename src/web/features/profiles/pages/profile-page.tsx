import { ComingSoon } from '#web/components/coming-soon.tsx';

export function ProfilePage() {
  return <ComingSoon title="Profile" />;
}
