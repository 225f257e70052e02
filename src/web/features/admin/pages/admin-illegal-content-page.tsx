import { ComingSoon } from '#web/components/coming-soon.tsx';

export function AdminIllegalContentPage() {
  return <ComingSoon title="Illegal Content" />;
}
