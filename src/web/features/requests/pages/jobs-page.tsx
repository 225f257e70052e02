import { ComingSoon } from '#web/components/coming-soon.tsx';

export function JobsPage() {
  return <ComingSoon title="Available Jobs in Your Subjects" />;
}
