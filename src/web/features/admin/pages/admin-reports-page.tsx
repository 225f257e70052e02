import { ComingSoon } from '#web/components/coming-soon.tsx';

export function AdminReportsPage() {
  return <ComingSoon title="Report Management" />;
}
