import { ComingSoon } from '#web/components/coming-soon.tsx';

export function AdminDashboardPage() {
  return <ComingSoon title="Dashboard" />;
}
