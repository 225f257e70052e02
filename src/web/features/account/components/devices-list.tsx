import { format } from 'date-fns';
import { Laptop, Smartphone } from 'lucide-react';
import type { Device } from '#shared/schemas/account.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { QueryError } from '#web/components/ui/query-error.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { toast } from '#web/lib/toast.ts';
import { useDevices, useSignOutDevice, useSignOutOtherDevices } from '../api.ts';

const formatDate = (value: string) => format(new Date(value), 'MMM d, yyyy, HH:mm');
const isPhoneOrTablet = (device: string) => /iPhone|iPad|Android/.test(device);

function DeviceRow({ device }: { device: Device }) {
  const signOut = useSignOutDevice();
  const Icon = isPhoneOrTablet(device.device) ? Smartphone : Laptop;
  const name = `${device.browser} on ${device.device}`;
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 gap-3">
        <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2 font-medium">
            {name}
            {device.isCurrent && <Badge variant="success">This device</Badge>}
          </p>
          <p className="text-sm text-muted-foreground">
            Signed in {formatDate(device.createdAt)} · Last active {formatDate(device.lastSeenAt)}
          </p>
        </div>
      </div>
      {!device.isCurrent && (
        <Button
          variant="outline"
          size="sm"
          className="self-start sm:self-center"
          aria-label={`Sign out ${name}`}
          loading={signOut.isPending}
          onClick={() =>
            signOut.mutate(device.id, {
              onSuccess: () => toast.success('Device signed out'),
              onError: (error) => toast.error('The device was not signed out', { description: errorMessage(error) }),
            })
          }
        >
          Sign out
        </Button>
      )}
    </li>
  );
}

/** Where the account is signed in, each device with its own "Sign out", and "Sign out everywhere else". */
export function DevicesList() {
  const { data, isPending, isError, error, refetch, isRefetching } = useDevices();
  const signOutOthers = useSignOutOtherDevices();

  if (isPending) {
    return (
      <div className="flex flex-col gap-4">
        <span role="status" className="sr-only">
          Loading your devices
        </span>
        {Array.from({ length: 2 }, (_, index) => (
          <div key={index} className="flex flex-col gap-2">
            <Skeleton className="h-5 w-56" />
            <Skeleton className="h-4 w-72 max-w-full" />
          </div>
        ))}
      </div>
    );
  }
  if (isError) {
    return <QueryError title="Error loading devices" query={{ error, refetch, isRefetching }} />;
  }

  const hasOthers = data.devices.some((device) => !device.isCurrent);
  return (
    <div className="flex flex-col gap-2">
      <ul className="divide-y" aria-label="Signed-in devices">
        {data.devices.map((device) => (
          <DeviceRow key={device.id} device={device} />
        ))}
      </ul>
      {hasOthers ? (
        <Button
          variant="outline"
          className="self-start"
          loading={signOutOthers.isPending}
          onClick={() =>
            signOutOthers.mutate(undefined, {
              onSuccess: () => toast.success('Signed out everywhere else'),
              onError: (error) => toast.error('Devices were not signed out', { description: errorMessage(error) }),
            })
          }
        >
          Sign out everywhere else
        </Button>
      ) : (
        <p className="text-sm text-muted-foreground">You are not signed in anywhere else.</p>
      )}
    </div>
  );
}
