import { ComingSoon } from '#web/components/coming-soon.tsx';

export function ReportUserPage() {
  return <ComingSoon title="Report User" />;
}
