import { ComingSoon } from '#web/components/coming-soon.tsx';

export function MyRequestsPage() {
  return <ComingSoon title="My Requests" />;
}
