import { ComingSoon } from '#web/components/coming-soon.tsx';

export function SearchStudentsPage() {
  return <ComingSoon title="Search for a Student" />;
}
