import { ComingSoon } from '#web/components/coming-soon.tsx';

export function ResetPasswordPage() {
  return <ComingSoon title="Set a new password" />;
}
