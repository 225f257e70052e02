import { useState } from 'react';
import { REPORT_REASONS, REPORT_STATUSES, type ReportStatus } from '#shared/constants.ts';
import { adminMessages, type AdminReport } from '#shared/schemas/admin.ts';
import { Button } from '#web/components/ui/button.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import type { AdminReview } from '#shared/schemas/reviews.ts';
import { useAdminReports, useDecideReport, useHideReview, useReportedReviews, type AdminTableFilter } from '../api.ts';
import { adminDateTime, DecisionCell, StatusBadge } from '../components/admin-format.tsx';
import { AdminTable, pagedRows, type AdminColumn } from '../components/admin-table.tsx';
import { DecisionDialog } from '../components/decision-dialog.tsx';
import { ReviewsToLookAt } from '../components/reviews-to-look-at.tsx';
import { UserLink } from '../components/user-link.tsx';

const reasonLabels = Object.fromEntries(REPORT_REASONS.map(({ value, label }) => [value, label]));
const isOpen = (report: AdminReport) => report.status === 'pending' || report.status === 'reviewed';

const columns: AdminColumn<AdminReport>[] = [
  { header: 'Reporter', cell: (report) => <UserLink user={report.reporter} fallback="Deleted account" /> },
  { header: 'Reported User', cell: (report) => <UserLink user={report.reportedUser} fallback="Deleted account" /> },
  {
    header: 'Reason',
    cell: (report) => (
      <span className="flex flex-col gap-0.5">
        <span>{reasonLabels[report.reason]}</span>
        <span className="text-muted-foreground">{report.description}</span>
      </span>
    ),
  },
  { header: 'Status', cell: (report) => <StatusBadge status={report.status} /> },
  { header: 'Created At', cell: (report) => adminDateTime(report.createdAt), sortable: true },
  { header: 'Decision', cell: (report) => <DecisionCell decision={report} /> },
];

const reviewColumns: AdminColumn<AdminReview>[] = [
  {
    header: 'Tutor',
    cell: (review) => <UserLink user={{ id: review.tutorId, username: review.tutorName }} fallback="Deleted account" />,
  },
  { header: 'Author', cell: (review) => <UserLink user={review.author} fallback="Deleted account" /> },
  {
    header: 'Review',
    cell: (review) => (
      <span className="flex flex-col gap-0.5">
        <span>
          {review.rating} / 5{review.body ? `: ${review.body}` : ''}
        </span>
        <span className="text-muted-foreground">Reported: {review.reportReason}</span>
      </span>
    ),
  },
  { header: 'Status', cell: (review) => <StatusBadge status={review.hiddenAt ? 'hidden' : 'visible'} /> },
  { header: 'Reported At', cell: (review) => (review.reportedAt ? adminDateTime(review.reportedAt) : '') },
];

/** Reviews their tutors reported; hiding one takes it off the tutor's page and out of the rating. */
function ReportedReviews() {
  const reviews = useReportedReviews();
  const hide = useHideReview();
  const [hiding, setHiding] = useState<AdminReview>();
  return (
    <>
      <AdminTable
        caption="Reported reviews"
        columns={reviewColumns}
        data={pagedRows(reviews)}
        rowKey={(review) => review.id}
        errorMessage={adminMessages.reportsFailed}
        emptyMessage="No reported reviews"
        actions={(review) =>
          !review.hiddenAt && (
            <Button size="sm" variant="outline" onClick={() => setHiding(review)}>
              Hide review
            </Button>
          )
        }
      />
      {hiding && (
        <DecisionDialog
          title="Hide review"
          description={`${hiding.tutorName} reported ${hiding.author.username}'s review: ${hiding.reportReason ?? ''}`}
          confirmLabel="Hide review"
          onConfirm={(note) => hide.mutateAsync({ id: hiding.id, note })}
          onClose={() => setHiding(undefined)}
        />
      )}
    </>
  );
}

export function AdminReportsPage() {
  useDocumentTitle('Report Management');
  const [filter, setFilter] = useState<AdminTableFilter<ReportStatus>>({ order: 'newest' });
  const reports = useAdminReports(filter);
  const decide = useDecideReport();
  const [deciding, setDeciding] = useState<{ report: AdminReport; status: 'resolved' | 'dismissed' }>();

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Report Management" />
      <AdminTable
        caption="User reports"
        columns={columns}
        data={pagedRows(reports)}
        rowKey={(report) => report.id}
        errorMessage={adminMessages.reportsFailed}
        emptyMessage="No reports"
        status={{
          value: filter.status,
          options: REPORT_STATUSES,
          onChange: (status) => setFilter({ ...filter, status: status as ReportStatus | undefined }),
        }}
        order={{ value: filter.order, onChange: (order) => setFilter({ ...filter, order }) }}
        actions={(report) =>
          isOpen(report) && (
            <>
              <Button size="sm" onClick={() => setDeciding({ report, status: 'resolved' })}>
                Resolve
              </Button>
              <Button size="sm" variant="outline" onClick={() => setDeciding({ report, status: 'dismissed' })}>
                Dismiss
              </Button>
            </>
          )
        }
      />
      {deciding && (
        <DecisionDialog
          title={deciding.status === 'resolved' ? 'Resolve report' : 'Dismiss report'}
          description={`${deciding.report.reporter?.username ?? 'Deleted account'} reported ${deciding.report.reportedUser.username}: ${reasonLabels[deciding.report.reason]}.`}
          confirmLabel={deciding.status === 'resolved' ? 'Resolve' : 'Dismiss'}
          onConfirm={(note) => decide.mutateAsync({ id: deciding.report.id, input: { status: deciding.status, note } })}
          onClose={() => setDeciding(undefined)}
        />
      )}
      <ReportedReviews />
      <ReviewsToLookAt />
    </div>
  );
}
