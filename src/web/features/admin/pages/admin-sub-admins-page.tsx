import { ComingSoon } from '#web/components/coming-soon.tsx';

export function AdminSubAdminsPage() {
  return <ComingSoon title="Sub-Admin Management" />;
}
