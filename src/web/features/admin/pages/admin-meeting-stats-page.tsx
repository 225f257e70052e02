import { ComingSoon } from '#web/components/coming-soon.tsx';

export function AdminMeetingStatsPage() {
  return <ComingSoon title="Meeting Statistics" />;
}
