import { format } from 'date-fns';
import { CircleAlert, Download } from 'lucide-react';
import type { DataExportView } from '#shared/schemas/account.ts';
import { formatFileSize } from '#shared/rules/file-size.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { QueryError } from '#web/components/ui/query-error.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { toast } from '#web/lib/toast.ts';
import { dataExportDownloadUrl, useLatestDataExport, useRequestDataExport } from '../api.ts';

const formatDate = (value: string) => format(new Date(value), 'MMM d, yyyy, HH:mm');

/** What the newest export allows: wait for it, download it, or ask again. */
function ExportState({ current }: { current: DataExportView | null }) {
  if (current?.status === 'building') {
    return (
      <p role="status" className="flex items-center gap-2 text-sm">
        <Spinner />
        Preparing your data. We will send you an e-mail and a notification when it is ready.
      </p>
    );
  }
  if (current?.status === 'ready' && current.expiresAt) {
    return (
      <div className="flex flex-col gap-3">
        <p className="text-sm">
          Your data is ready{current.sizeBytes !== null && ` (${formatFileSize(current.sizeBytes)})`}. The download
          works until {formatDate(current.expiresAt)}.
        </p>
        <Button asChild className="self-start">
          <a href={dataExportDownloadUrl(current.id)} download>
            <Download aria-hidden="true" />
            Download my data
          </a>
        </Button>
      </div>
    );
  }
  if (current?.status === 'failed') {
    return (
      <Alert variant="destructive" role="alert" icon={<CircleAlert aria-hidden="true" />} title="Export failed">
        <p>We could not prepare your data. Please ask again.</p>
      </Alert>
    );
  }
  if (current?.status === 'expired') {
    return <p className="text-sm text-muted-foreground">Your last download has expired and its file was deleted.</p>;
  }
  return null;
}

/** "Download my data": a zip of everything the service holds about the user, built in the background. */
export function DataExport() {
  const { data, isPending, isError, error, refetch, isRefetching } = useLatestDataExport();
  const request = useRequestDataExport();

  if (isPending) {
    return (
      <div className="flex flex-col gap-2">
        <span role="status" className="sr-only">
          Loading your data export
        </span>
        <Skeleton className="h-5 w-64 max-w-full" />
        <Skeleton className="h-9 w-44" />
      </div>
    );
  }
  if (isError) {
    return <QueryError title="Error loading export" query={{ error, refetch, isRefetching }} />;
  }

  const current = data.export;
  return (
    <div className="flex flex-col gap-4">
      <ExportState current={current} />
      {current?.status !== 'building' && (
        <Button
          variant={current?.status === 'ready' ? 'outline' : 'default'}
          className="self-start"
          loading={request.isPending}
          onClick={() =>
            request.mutate(undefined, {
              onError: (requestError) =>
                toast.error('Your data export was not started', { description: errorMessage(requestError) }),
            })
          }
        >
          {current ? 'Prepare a new download' : 'Prepare my data'}
        </Button>
      )}
    </div>
  );
}
