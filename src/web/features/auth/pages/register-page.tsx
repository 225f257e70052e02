import { ComingSoon } from '#web/components/coming-soon.tsx';

export function RegisterPage() {
  return <ComingSoon title="Create your account" />;
}
