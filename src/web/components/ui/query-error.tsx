import { CircleAlert, RotateCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { errorMessage } from '#web/lib/api.ts';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';

/** What a failed query leaves to show: its error, and the way to ask again. */
type FailedQuery = { error: unknown; refetch: () => unknown; isRefetching: boolean };

/**
 * In the place of what a query could not load: `title` names it, the server's reason follows, and Try again asks
 * once more (busy while it does). `children` are further ways out, beside Try again.
 */
export function QueryError({ title, query, children }: { title: string; query: FailedQuery; children?: ReactNode }) {
  return (
    <Alert variant="destructive" icon={<CircleAlert aria-hidden="true" />} title={title}>
      <p>{errorMessage(query.error)}</p>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => void query.refetch()} loading={query.isRefetching}>
          {!query.isRefetching && <RotateCw aria-hidden="true" />}
          Try again
        </Button>
        {children}
      </div>
    </Alert>
  );
}
