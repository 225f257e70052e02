import { ComingSoon } from '#web/components/coming-soon.tsx';

export function LoginPage() {
  return <ComingSoon title="Sign in" />;
}
