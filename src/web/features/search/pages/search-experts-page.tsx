import { ComingSoon } from '#web/components/coming-soon.tsx';

export function SearchExpertsPage() {
  return <ComingSoon title="Search for an Expert" />;
}
