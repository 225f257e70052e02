import { ComingSoon } from '#web/components/coming-soon.tsx';

export function ForgotPasswordPage() {
  return <ComingSoon title="Reset your password" />;
}
