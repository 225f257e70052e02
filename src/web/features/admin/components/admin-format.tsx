import { format } from 'date-fns';
import type { AdminUserRef } from '#shared/schemas/admin.ts';
import { Badge, type BadgeProps } from '#web/components/ui/badge.tsx';

/** A date and time as admin tables show them (Created At, Start Time, decided at). */
export const adminDateTime = (iso: string) => format(new Date(iso), 'd MMM yyyy, HH:mm');

const statusVariants: Record<string, BadgeProps['variant']> = {
  pending: 'warning',
  reviewed: 'info',
  resolved: 'success',
  dismissed: 'neutral',
  Scheduled: 'info',
  Completed: 'success',
  Cancelled: 'neutral',
  active: 'success',
  inactive: 'neutral',
  open: 'warning',
  handled: 'success',
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge variant={statusVariants[status] ?? 'outline'}>{status.charAt(0).toUpperCase() + status.slice(1)}</Badge>
  );
}

/** Who decided a report or flag, when, and the note; a dash while nobody has. */
export function DecisionCell({
  decision,
}: {
  decision: { decidedBy: AdminUserRef | null; decidedAt: string | null; decisionNote: string | null };
}) {
  if (!decision.decidedAt) return <span className="text-muted-foreground">—</span>;
  return (
    <span className="flex flex-col gap-0.5">
      <span>
        {decision.decidedBy?.username ?? 'A former admin'}, {adminDateTime(decision.decidedAt)}
      </span>
      {decision.decisionNote && <span className="text-muted-foreground">{decision.decisionNote}</span>}
    </span>
  );
}
