import { CircleCheck, TriangleAlert } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { EMAIL_CHANGE_OUTCOMES, emailChangeOutcomeMessages, type EmailChangeOutcome } from '#shared/schemas/account.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '#web/components/ui/card.tsx';
import { Container } from '#web/components/ui/container.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { useSession } from '#web/lib/auth-client.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { ChangeEmailForm } from '../components/change-email-form.tsx';
import { ChangePasswordForm } from '../components/change-password-form.tsx';
import { DataExport } from '../components/data-export.tsx';
import { DevicesList } from '../components/devices-list.tsx';

function Section({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Card className="px-0" aria-labelledby={headingId} role="region">
      <CardHeader>
        <h2 id={headingId} className="text-lg font-semibold">
          {title}
        </h2>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

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
        description="Your e-mail address, your password, where you are signed in and your data."
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
      <Section
        title="E-mail address"
        description="We send a confirmation link to the new address and a notice to the current one. You stay signed in."
      >
        <ChangeEmailForm currentEmail={user?.email ?? ''} />
      </Section>
      <Section title="Password" description="Changing your password signs out every other device.">
        <ChangePasswordForm />
      </Section>
      <Section title="Signed-in devices" description="The browsers and devices where your account is signed in.">
        <DevicesList />
      </Section>
      <Section
        title="Your data"
        description="Download a copy of what Virtual Help keeps about you: your profile, requests, offers, jobs, messages, meetings, reviews, reports you filed, notifications, payments and the files you uploaded, in one zip."
      >
        <DataExport />
      </Section>
    </Container>
  );
}
