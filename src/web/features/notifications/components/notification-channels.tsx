import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_TOPICS,
  notificationChannelLabels,
  notificationTopicLabels,
  type NotificationChannel,
  type NotificationTopic,
} from '#shared/schemas/notification-settings.ts';
import { QueryError } from '#web/components/ui/query-error.tsx';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { toast } from '#web/lib/toast.ts';
import { useNotificationSettings, useUpdateNotificationSettings } from '../settings-api.ts';

/** For each kind of news, a checkbox per channel; each change is saved at once. */
export function NotificationChannels() {
  const query = useNotificationSettings();
  const update = useUpdateNotificationSettings();

  if (query.isPending) {
    return (
      <div className="flex flex-col gap-3">
        <span role="status" className="sr-only">
          Loading your notification settings
        </span>
        {NOTIFICATION_TOPICS.map((topic) => (
          <Skeleton key={topic} className="h-6 w-full" />
        ))}
      </div>
    );
  }
  if (query.isError) return <QueryError title="Error loading notification settings" query={query} />;
  const { data } = query;

  const change = (topic: NotificationTopic, channel: NotificationChannel, on: boolean) =>
    update.mutate(
      { topics: { [topic]: { [channel]: on } } },
      {
        onError: (failure) => toast.error('The setting was not saved', { description: errorMessage(failure) }),
      },
    );

  return (
    <table className="w-full text-sm">
      <caption className="sr-only">Where each kind of notification reaches you</caption>
      <thead>
        <tr className="border-b text-left text-muted-foreground">
          <th scope="col" className="py-2 pr-2 font-medium">
            Kind
          </th>
          {NOTIFICATION_CHANNELS.map((channel) => (
            <th key={channel} scope="col" className="w-16 px-1 py-2 text-center font-medium sm:w-24">
              {notificationChannelLabels[channel]}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {NOTIFICATION_TOPICS.map((topic) => (
          <tr key={topic} className="border-b last:border-b-0">
            <th scope="row" className="py-3 pr-2 text-left font-normal">
              {notificationTopicLabels[topic]}
            </th>
            {NOTIFICATION_CHANNELS.map((channel) => (
              <td key={channel} className="px-1 py-3 text-center">
                <Checkbox
                  aria-label={`${notificationTopicLabels[topic]}: ${notificationChannelLabels[channel]}`}
                  checked={data.topics[topic][channel]}
                  onCheckedChange={(checked) => change(topic, channel, checked === true)}
                />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
