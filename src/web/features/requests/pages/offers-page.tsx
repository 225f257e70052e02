import { ComingSoon } from '#web/components/coming-soon.tsx';

export function OffersPage() {
  return <ComingSoon title="Tutor Offers" />;
}
