import { Container } from '#web/components/ui/container.tsx';
import { SettingsSection } from '#web/components/ui/settings-section.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { NotificationChannels } from '../components/notification-channels.tsx';
import { PushDevices } from '../components/push-devices.tsx';

export function NotificationSettingsPage() {
  useDocumentTitle('Notification settings');
  return (
    <Container className="flex max-w-3xl flex-col gap-8 py-10 sm:py-14">
      <PageHeader
        title="Notification settings"
        description="Choose what reaches you in the app, by e-mail and as push notifications on your devices."
      />
      <SettingsSection
        title="Push notifications"
        description="Pushed to a device while no tab of Virtual Help is open and shown there."
      >
        <PushDevices />
      </SettingsSection>
      <SettingsSection title="What reaches you, and how" description="Changes are saved as you make them.">
        <NotificationChannels />
      </SettingsSection>
    </Container>
  );
}
