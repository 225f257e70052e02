import { formatCents } from '#shared/rules/money.ts';
import type { Chargeback } from '#shared/schemas/refunds.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { adminDateTime } from './admin-format.tsx';

/** Stripe's reason codes in words (any other is shown as Stripe names it). */
const REASONS: Record<string, string> = {
  fraudulent: 'Fraudulent',
  product_not_received: 'Service not received',
  product_unacceptable: 'Service unacceptable',
  duplicate: 'Duplicate charge',
  subscription_canceled: 'Subscription cancelled',
  credit_not_processed: 'Refund not processed',
  unrecognized: 'Unrecognised charge',
  general: 'General',
};

const words = (code: string) => REASONS[code] ?? code.replaceAll('_', ' ');

/** Chargebacks opened at Stripe: the job's money is frozen until Stripe closes them; admins answer in Stripe. */
export function Chargebacks({ chargebacks }: { chargebacks: Chargeback[] }) {
  return (
    <section className="flex flex-col gap-3" aria-labelledby="admin-chargebacks">
      <h3 id="admin-chargebacks" className="font-semibold">
        Chargebacks at Stripe
      </h3>
      <p className="text-sm text-muted-foreground">
        The card holder’s bank disputes the charge. The job’s money is on hold until Stripe closes the dispute; answer
        it with the evidence in Stripe’s dashboard.
      </p>
      <ul className="flex flex-col gap-3">
        {chargebacks.map((chargeback) => (
          <li key={chargeback.id}>
            <Card className="flex flex-col gap-2 p-4">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h4 className="font-semibold">
                  {words(chargeback.reason)}: {formatCents(chargeback.amountCents)}, {chargeback.subjectName}
                </h4>
                <Badge variant={chargeback.outcome === null ? 'warning' : 'neutral'}>
                  {chargeback.outcome === null
                    ? `Open: ${words(chargeback.stripeStatus)}`
                    : chargeback.outcome === 'won'
                      ? 'Won'
                      : 'Lost: refunded to the card'}
                </Badge>
              </div>
              <p className="text-sm">
                Student {chargeback.studentName}, tutor {chargeback.tutorName}. Opened{' '}
                {adminDateTime(chargeback.openedAt)}
                {chargeback.closedAt ? `, closed ${adminDateTime(chargeback.closedAt)}` : ''}. Stripe’s reference{' '}
                <code>{chargeback.id}</code>.
              </p>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
