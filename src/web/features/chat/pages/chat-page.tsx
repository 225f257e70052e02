import { ComingSoon } from '#web/components/coming-soon.tsx';

export function ChatPage() {
  return <ComingSoon title="Chat" />;
}
