import { Flag } from 'lucide-react';
import { useId, useState, type SubmitEvent } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { REPORT_REASONS, type ReportReason } from '#shared/constants.ts';
import { createReportSchema, REPORT_DETAILS_MAX_LENGTH, reportMessages } from '#shared/schemas/reports.ts';
import { paths } from '#shared/paths.ts';
import { Alert } from '#web/components/ui/alert.tsx';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { Container } from '#web/components/ui/container.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { RadioGroup, RadioGroupItem } from '#web/components/ui/radio-group.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { toastMessage } from '#web/lib/toast-message.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { useCreateReport, useReportTarget } from '../api.ts';

const roleLabels = { student: 'Student', teacher: 'Expert' } as const;

/** Back where the user came from; straight to the chat when the form was opened directly. */
function useGoBack() {
  const navigate = useNavigate();
  const location = useLocation();
  return () => void (location.key === 'default' ? navigate(paths.chat.getHref()) : navigate(-1));
}

export function ReportUserPage() {
  useDocumentTitle('Report User');
  const { userId = '' } = useParams();
  const target = useReportTarget(userId);
  const create = useCreateReport();
  const goBack = useGoBack();
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [description, setDescription] = useState('');
  const [showErrors, setShowErrors] = useState(false);
  const baseId = useId();

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = createReportSchema.safeParse({ reportedUserId: userId, reason, description });
    if (!parsed.success) {
      setShowErrors(true);
      toastMessage(parsed.error.issues[0]!.message);
      return;
    }
    create.mutate(parsed.data, {
      onSuccess: () => {
        toastMessage(reportMessages.submitted, 'success');
        goBack();
      },
      onError: (error) => toastMessage(`Error - ${errorMessage(error)}`),
    });
  };

  return (
    <Container className="flex max-w-2xl flex-col gap-6 py-8 sm:py-12">
      <PageHeader
        title="Report User"
        description="Tell us what happened. Our moderators review every report; the person is not told who reported them."
      />
      {target.isPending ? (
        <Skeleton className="h-20 w-full rounded-xl" aria-label="Loading" />
      ) : target.isError ? (
        <Alert variant="destructive" title="This user cannot be reported">
          <p>{errorMessage(target.error)}</p>
          <Button asChild variant="outline" size="sm" className="mt-3">
            <Link to={paths.chat.getHref()}>Back to chat</Link>
          </Button>
        </Alert>
      ) : (
        <>
          <Card className="flex-row items-center gap-4 px-5 py-4" aria-label="Reported user">
            <Avatar name={target.data.username} src={target.data.image} className="size-12 text-lg" />
            <div className="min-w-0">
              <p className="text-sm text-muted-foreground">You are reporting</p>
              <p className="truncate font-semibold">{target.data.username}</p>
              <p className="text-sm text-muted-foreground">{roleLabels[target.data.role]}</p>
            </div>
          </Card>
          <form onSubmit={submit} noValidate className="flex flex-col gap-6">
            <fieldset className="flex flex-col gap-3" aria-describedby={`${baseId}-reason-error`}>
              <legend className="mb-3 text-sm font-medium">Reason</legend>
              <RadioGroup
                value={reason}
                onValueChange={(value) => setReason(value as ReportReason)}
                aria-label="Reason"
                aria-invalid={showErrors && !reason ? true : undefined}
                className="grid-cols-1 sm:grid-cols-2"
              >
                {REPORT_REASONS.map(({ value, label }) => (
                  <div key={value} className="flex items-center gap-3">
                    <RadioGroupItem id={`${baseId}-${value}`} value={value} />
                    <Label htmlFor={`${baseId}-${value}`} className="cursor-pointer">
                      {label}
                    </Label>
                  </div>
                ))}
              </RadioGroup>
              {showErrors && !reason && (
                <p id={`${baseId}-reason-error`} className="text-sm font-medium text-error">
                  Please choose a reason
                </p>
              )}
            </fieldset>
            <FormField
              label="Details"
              required
              error={showErrors && !description.trim() ? 'Please describe what happened' : undefined}
              description={`${description.length} / ${REPORT_DETAILS_MAX_LENGTH}`}
            >
              <Textarea
                value={description}
                onChange={(event) => setDescription(event.target.value)}
                rows={6}
                maxLength={REPORT_DETAILS_MAX_LENGTH}
                placeholder="What happened, and when?"
              />
            </FormField>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button type="button" variant="outline" onClick={goBack}>
                Cancel
              </Button>
              <Button type="submit" variant="destructive" disabled={create.isPending}>
                <Flag aria-hidden="true" />
                {create.isPending ? 'Submitting…' : 'Submit'}
              </Button>
            </div>
          </form>
        </>
      )}
    </Container>
  );
}
