import { format } from 'date-fns';
import { BellOff, BellRing } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { QueryError } from '#web/components/ui/query-error.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { toast } from '#web/lib/toast.ts';
import { pushSupport } from '#web/lib/web-push.ts';
import { toastNotificationsDisabled } from '../api.ts';
import { usePushDevices, useRemovePushDevice, useTurnOnPush } from '../settings-api.ts';

const formatDate = (value: string) => format(new Date(value), 'MMM d, yyyy');
const noSubscription = () => () => undefined;

/** "Turn on notifications on this device", or why it cannot be, then every device that receives pushes. */
export function PushDevices() {
  const query = usePushDevices();
  const turnOn = useTurnOnPush();
  const remove = useRemovePushDevice();
  const support = useSyncExternalStore(noSubscription, pushSupport, () => 'unsupported' as const);

  if (query.isPending) {
    return (
      <div className="flex flex-col gap-3">
        <span role="status" className="sr-only">
          Loading your devices
        </span>
        <Skeleton className="h-9 w-64" />
        <Skeleton className="h-5 w-72 max-w-full" />
      </div>
    );
  }
  if (query.isError) return <QueryError title="Error loading devices" query={query} />;
  const { data } = query;

  const isOn = data.thisDeviceId !== null;
  const turnOnHere = () =>
    turnOn.mutate(undefined, {
      onSuccess: (granted) => {
        if (granted) toast.success('Notifications are on for this device');
        else toastNotificationsDisabled();
      },
      onError: (failure) => toast.error('Notifications were not turned on', { description: errorMessage(failure) }),
    });

  return (
    <div className="flex flex-col gap-4">
      {support === 'unsupported' ? (
        <p className="text-sm text-muted-foreground">
          This browser cannot receive push notifications. On an iPhone or iPad, add Virtual Help to the Home Screen
          first.
        </p>
      ) : support === 'denied' ? (
        <p className="text-sm text-muted-foreground">
          Notifications are blocked for Virtual Help in this browser’s settings. Allow them there, then come back.
        </p>
      ) : isOn ? (
        <p className="flex items-center gap-2 text-sm">
          <BellRing aria-hidden="true" className="size-4 text-success" />
          Notifications are on for this device.
        </p>
      ) : (
        <Button className="self-start" onClick={turnOnHere} loading={turnOn.isPending}>
          {!turnOn.isPending && <BellRing aria-hidden="true" />}
          Turn on notifications on this device
        </Button>
      )}
      {data.devices.length === 0 ? (
        <p className="text-sm text-muted-foreground">No device receives push notifications yet.</p>
      ) : (
        <ul aria-label="Devices with push notifications" className="divide-y">
          {data.devices.map((device) => {
            const isThisDevice = device.id === data.thisDeviceId;
            const name = `${device.browser} on ${device.device}`;
            return (
              <li key={device.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2 font-medium">
                    {name}
                    {isThisDevice && <Badge variant="success">This device</Badge>}
                  </p>
                  <p className="text-sm text-muted-foreground">Since {formatDate(device.createdAt)}</p>
                </div>
                <Button
                  variant="outline"
                  size="sm"
                  className="self-start sm:self-center"
                  aria-label={`Remove ${name}`}
                  loading={remove.isPending && remove.variables.id === device.id}
                  onClick={() =>
                    remove.mutate(
                      { id: device.id, isThisDevice },
                      {
                        onSuccess: () => toast.success('Device removed'),
                        onError: (failure) =>
                          toast.error('The device was not removed', { description: errorMessage(failure) }),
                      },
                    )
                  }
                >
                  {!(remove.isPending && remove.variables.id === device.id) && <BellOff aria-hidden="true" />}
                  Remove
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
