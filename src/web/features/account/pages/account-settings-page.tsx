import { CircleCheck, TriangleAlert } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '#shared/paths.ts';
import { EMAIL_CHANGE_OUTCOMES, emailChangeOutcomeMessages, type EmailChangeOutcome } from '#shared/schemas/account.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Container } from '#web/components/ui/container.tsx';
import { SettingsSection } from '#web/components/ui/settings-section.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { useSession } from '#web/lib/auth-client.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { ChangeEmailForm } from '../components/change-email-form.tsx';
import { ChangePasswordForm } from '../components/change-password-form.tsx';
import { DataExport } from '../components/data-export.tsx';
import { DeleteAccount } from '../components/delete-account.tsx';
import { DevicesList } from '../components/devices-list.tsx';

/** What the confirmation link of an e-mail change did, read from the address it led back to. */
function useEmailChangeOutcome(): EmailChangeOutcome | null {
  const [params] = useSearchParams();
  const outcome = params.get('emailChange');
  return EMAIL_CHANGE_OUTCOMES.find((known) => known === outcome) ?? null;
}

export function AccountSettingsPage() {
  useDocumentTitle('Account settings');
  const { user } = useSession();
  const outcome = useEmailChangeOutcome();

  return (
    <Container className="flex max-w-3xl flex-col gap-8 py-10 sm:py-14">
      <PageHeader
        title="Account settings"
        description="Your e-mail address, your password, where you are signed in, your data and your account."
      />
      {outcome && (
        <Alert
          variant={outcome === 'changed' ? 'success' : 'warning'}
          role={outcome === 'changed' ? 'status' : 'alert'}
          icon={outcome === 'changed' ? <CircleCheck aria-hidden="true" /> : <TriangleAlert aria-hidden="true" />}
          title={outcome === 'changed' ? 'E-mail address changed' : 'E-mail address not changed'}
        >
          <p>{emailChangeOutcomeMessages[outcome]}</p>
        </Alert>
      )}
      <SettingsSection
        title="E-mail address"
        description="We send a confirmation link to the new address and a notice to the current one. You stay signed in."
      >
        <ChangeEmailForm currentEmail={user?.email ?? ''} />
      </SettingsSection>
      <SettingsSection title="Password" description="Changing your password signs out every other device.">
        <ChangePasswordForm />
      </SettingsSection>
      <SettingsSection
        title="Signed-in devices"
        description="The browsers and devices where your account is signed in."
      >
        <DevicesList />
      </SettingsSection>
      <SettingsSection
        title="Notifications"
        description="What reaches you in the app, by e-mail and as push notifications on your devices."
      >
        <Link
          to={paths.settings.notifications.getHref()}
          className="font-medium text-primary underline-offset-4 hover:underline"
        >
          Notification settings
        </Link>
      </SettingsSection>
      <SettingsSection
        title="Your data"
        description="Download a copy of what Virtual Help keeps about you: your profile, requests, offers, jobs, messages, meetings, reviews, reports you filed, notifications, payments and the files you uploaded, in one zip."
      >
        <DataExport />
      </SettingsSection>
      <SettingsSection
        title="Delete my account"
        description="Leave Virtual Help and have your personal data erased. Download your data first if you want to keep a copy."
      >
        <DeleteAccount />
      </SettingsSection>
    </Container>
  );
}
