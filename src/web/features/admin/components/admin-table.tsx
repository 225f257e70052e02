import { ArrowDown, ArrowUp } from 'lucide-react';
import type { ReactNode } from 'react';
import type { AdminListOrder } from '#shared/schemas/admin.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { EmptyState } from '#web/components/ui/empty-state.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { cn } from '#web/lib/utils.ts';

export type AdminColumn<T> = {
  header: string;
  cell: (row: T) => ReactNode;
  /** The column the server sorts by (Created At): its header toggles newest / oldest first. */
  sortable?: boolean;
  className?: string;
};

/** The rows and state of a list, as a TanStack (infinite) query gives them. */
type AdminTableData<T> = {
  rows: T[] | undefined;
  isPending: boolean;
  isError: boolean;
  hasNextPage?: boolean;
  isFetchingNextPage?: boolean;
  fetchNextPage?: () => unknown;
};

/** An infinite query's pages as one table's rows. */
export function pagedRows<T>(query: {
  data?: { pages: { items: T[] }[] } | undefined;
  isPending: boolean;
  isError: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}): AdminTableData<T> {
  return {
    rows: query.data?.pages.flatMap((page) => page.items),
    isPending: query.isPending,
    isError: query.isError,
    hasNextPage: query.hasNextPage,
    isFetchingNextPage: query.isFetchingNextPage,
    fetchNextPage: query.fetchNextPage,
  };
}

type AdminTableProps<T> = {
  /** Names the table for screen readers. */
  caption: string;
  columns: AdminColumn<T>[];
  data: AdminTableData<T>;
  rowKey: (row: T) => string;
  /** SPEC.md's "Failed to fetch …" text of this table. */
  errorMessage: string;
  emptyMessage: string;
  /** A status filter above the table. */
  status?: { value: string | undefined; options: readonly string[]; onChange: (status: string | undefined) => void };
  order?: { value: AdminListOrder; onChange: (order: AdminListOrder) => void };
  /** Buttons for one row (resolve, remove...), in a last column. */
  actions?: (row: T) => ReactNode;
};

const statusLabel = (status: string) => status.charAt(0).toUpperCase() + status.slice(1);

/**
 * The one table of the admin panel: pages come from the server ("Load more"), the Created At header sorts on the
 * server, an optional status filter; loading, empty and error states. Under 768 px each row becomes a card of
 * "Header: value" lines, so nothing scrolls sideways at 375 px.
 */
export function AdminTable<T>({
  caption,
  columns,
  data,
  rowKey,
  errorMessage,
  emptyMessage,
  status,
  order,
  actions,
}: AdminTableProps<T>) {
  return (
    <div className="flex flex-col gap-4">
      {status && (
        <div className="flex flex-col gap-2 sm:w-56">
          <Label htmlFor={`${caption}-status`}>Status</Label>
          <NativeSelect
            id={`${caption}-status`}
            value={status.value ?? ''}
            onChange={(event) => status.onChange(event.target.value || undefined)}
          >
            <option value="">All statuses</option>
            {status.options.map((option) => (
              <option key={option} value={option}>
                {statusLabel(option)}
              </option>
            ))}
          </NativeSelect>
        </div>
      )}
      {data.isError ? (
        <Alert variant="destructive" role="alert" title={errorMessage} />
      ) : data.rows && data.rows.length === 0 ? (
        <EmptyState title={emptyMessage} headingLevel="h3" />
      ) : (
        <div className="rounded-xl border md:overflow-x-auto">
          <table className="w-full text-sm" aria-busy={data.isPending || undefined}>
            <caption className="sr-only">{caption}</caption>
            <thead className="sr-only md:not-sr-only md:table-header-group">
              <tr className="border-b bg-muted/50 text-left">
                {columns.map((column) => (
                  <th
                    key={column.header}
                    scope="col"
                    className={cn('px-4 py-3 font-medium whitespace-nowrap text-muted-foreground', column.className)}
                    aria-sort={
                      column.sortable && order ? (order.value === 'newest' ? 'descending' : 'ascending') : undefined
                    }
                  >
                    {column.sortable && order ? (
                      <SortButton label={column.header} order={order.value} onChange={order.onChange} />
                    ) : (
                      column.header
                    )}
                  </th>
                ))}
                {actions && (
                  <th scope="col" className="px-4 py-3 font-medium text-muted-foreground">
                    Actions
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {data.rows
                ? data.rows.map((row) => (
                    <tr
                      key={rowKey(row)}
                      className="flex flex-col gap-1 border-b px-4 py-3 last:border-b-0 md:table-row md:p-0"
                    >
                      {columns.map((column) => (
                        <td
                          key={column.header}
                          className={cn('flex gap-2 align-top md:table-cell md:px-4 md:py-3', column.className)}
                        >
                          <span
                            aria-hidden="true"
                            className="w-28 shrink-0 font-medium text-muted-foreground md:hidden"
                          >
                            {column.header}
                          </span>
                          <span className="min-w-0 break-words">{column.cell(row)}</span>
                        </td>
                      ))}
                      {actions && (
                        <td className="pt-2 align-top md:table-cell md:px-4 md:py-3">
                          <div className="flex flex-wrap gap-2">{actions(row)}</div>
                        </td>
                      )}
                    </tr>
                  ))
                : Array.from({ length: 3 }, (_, index) => (
                    <tr key={index} className="flex flex-col border-b px-4 py-3 md:table-row md:p-0">
                      {columns.map((column) => (
                        <td key={column.header} className="md:table-cell md:px-4 md:py-3">
                          <Skeleton className="h-4 w-full max-w-32" />
                        </td>
                      ))}
                      {actions && <td className="md:table-cell" />}
                    </tr>
                  ))}
            </tbody>
          </table>
        </div>
      )}
      {data.hasNextPage && (
        <Button
          variant="outline"
          className="self-center"
          loading={data.isFetchingNextPage}
          onClick={() => data.fetchNextPage?.()}
        >
          Load more
        </Button>
      )}
    </div>
  );
}

function SortButton({
  label,
  order,
  onChange,
}: {
  label: string;
  order: AdminListOrder;
  onChange: (order: AdminListOrder) => void;
}) {
  const Icon = order === 'newest' ? ArrowDown : ArrowUp;
  return (
    <button
      type="button"
      className="inline-flex items-center gap-1 rounded-sm hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      onClick={() => onChange(order === 'newest' ? 'oldest' : 'newest')}
    >
      {label}
      <Icon className="size-3.5" aria-hidden="true" />
      <span className="sr-only">{order === 'newest' ? '(newest first)' : '(oldest first)'}</span>
    </button>
  );
}
