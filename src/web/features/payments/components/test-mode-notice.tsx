import { FlaskConical } from 'lucide-react';
import { Alert } from '#web/components/ui/alert.tsx';

/** On every payment screen under the `test` provider: nothing charged here is real. */
export function TestModeNotice() {
  return (
    <Alert variant="warning" icon={<FlaskConical aria-hidden="true" />} title="Test mode — no real money moves">
      <p>
        Pay with the test card 4242 4242 4242 4242, any future expiry date and any CVC. The card 4000 0000 0000 0002 is
        declined.
      </p>
    </Alert>
  );
}
