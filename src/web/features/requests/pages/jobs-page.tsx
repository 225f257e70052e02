import { Copy, Download, Paperclip, Briefcase } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { JOB_CARD_DESCRIPTION_LENGTH, type RequestType } from '#shared/constants.ts';
import { formatBudget } from '#shared/rules/budget.ts';
import { isRequestExpired } from '#shared/rules/expiry.ts';
import { truncateText } from '#shared/rules/text.ts';
import type { Attachment, Job } from '#shared/schemas/requests.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '#web/components/ui/dropdown-menu.tsx';
import { EmptyState } from '#web/components/ui/empty-state.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { QueryError } from '#web/components/ui/query-error.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { downloadFile } from '#web/lib/download.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { cn } from '#web/lib/utils.ts';
import { useJobs, useTeacherSubjects } from '../api.ts';
import { Fact, formatDate, levelLabels, requestTypeTitles } from '../components/request-display.tsx';
import { BidDialog, BidForm } from '../components/bid-dialog.tsx';
import { DeclineDirectRequest } from '../components/decline-direct-request.tsx';
import { JOBS_PAGE_TITLE, JobListSkeleton, JobsBodySkeleton, JobsPageLayout } from '../components/jobs-page-frame.tsx';

type Tab = 'all' | RequestType;

const emptyTexts: Record<Tab, string> = {
  all: 'No jobs available in your subjects.',
  tutoring: 'No tutoring requests available.',
  assignment: 'No assignment requests available.',
};

async function downloadAttachment(attachment: Attachment) {
  try {
    await downloadFile(attachment.url, attachment.name);
    toast.success('File downloaded successfully');
  } catch {
    toast.error('Download failed');
  }
}

async function copyAttachmentUrl(attachment: Attachment) {
  try {
    await navigator.clipboard.writeText(new URL(attachment.url, window.location.origin).href);
    toast.success('URL copied to clipboard');
  } catch {
    toast.error('Failed to copy URL');
  }
}

function JobCard({
  job,
  isHighlighted,
  hasBid,
  onBid,
}: {
  job: Job;
  isHighlighted: boolean;
  hasBid: boolean;
  onBid: () => void;
}) {
  const isExpired = isRequestExpired(job.openSince) || job.status === 'closed';
  return (
    <li id={`job-${job.id}`} className="scroll-mt-24">
      <Card
        role="article"
        aria-label={`${requestTypeTitles[job.type]}: ${job.subjectName}`}
        // Takes focus back from the bid dialog once the bid has turned Submit Bid into a disabled Already Bid.
        tabIndex={-1}
        aria-current={isHighlighted || undefined}
        className={cn('gap-3 px-5', isHighlighted && 'ring-2 ring-primary ring-offset-2 ring-offset-background')}
      >
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant={job.type === 'tutoring' ? 'info' : 'secondary'}>{requestTypeTitles[job.type]}</Badge>
          {isExpired && <Badge variant="danger">Expired</Badge>}
          {job.direct && <Badge variant="success">Sent to you</Badge>}
          {job.attachmentCount > 0 && (
            <Badge variant="outline">
              <Paperclip aria-hidden="true" />
              {job.attachmentCount} {job.attachmentCount === 1 ? 'file' : 'files'}
            </Badge>
          )}
        </div>
        <h3 className="text-lg font-semibold">{job.subjectName}</h3>
        <p className="text-sm break-words">{truncateText(job.description, JOB_CARD_DESCRIPTION_LENGTH)}</p>
        <dl className="flex flex-wrap gap-x-5 gap-y-1 text-sm text-muted-foreground">
          <Fact label="Budget:" emphasis>
            {formatBudget({ minCents: job.budgetMinCents, maxCents: job.budgetMaxCents })}
          </Fact>
          {job.deadline && <Fact label="Due:">{formatDate(job.deadline)}</Fact>}
          {job.level && <Fact label="Level:">{levelLabels[job.level]}</Fact>}
          <div>
            <dt className="sr-only">Posted</dt>
            <dd>
              {isRequestExpired(job.openSince)
                ? 'Posted more than 48 hours ago'
                : `Posted ${formatDate(job.createdAt)}`}
            </dd>
          </div>
        </dl>
        {job.attachments.length > 0 && (
          <ul className="flex flex-wrap gap-2" aria-label="Attachments">
            {job.attachments.map((attachment) => (
              <li key={attachment.index}>
                <DropdownMenu>
                  <DropdownMenuTrigger asChild>
                    <Button variant="outline" size="sm" className="max-w-56">
                      <Paperclip aria-hidden="true" />
                      <span className="truncate">{attachment.name}</span>
                    </Button>
                  </DropdownMenuTrigger>
                  <DropdownMenuContent align="start">
                    <DropdownMenuItem onSelect={() => void downloadAttachment(attachment)}>
                      <Download aria-hidden="true" />
                      Download
                    </DropdownMenuItem>
                    <DropdownMenuItem onSelect={() => void copyAttachmentUrl(attachment)}>
                      <Copy aria-hidden="true" />
                      Copy URL
                    </DropdownMenuItem>
                  </DropdownMenuContent>
                </DropdownMenu>
              </li>
            ))}
          </ul>
        )}
        {/* One button in one place: Submit Bid becomes Already Bid in the same element, so the bid dialog's focus
            goes back to this card rather than to a button that is gone. */}
        <div className="flex flex-wrap gap-2">
          {isExpired ? (
            <Button disabled variant="secondary">
              Expired
            </Button>
          ) : hasBid ? (
            <Button disabled variant="secondary">
              Already Bid
            </Button>
          ) : (
            <Button onPointerEnter={BidForm.preload} onFocus={BidForm.preload} onClick={onBid}>
              Submit Bid
            </Button>
          )}
          {!isExpired && !hasBid && job.direct && <DeclineDirectRequest requestId={job.id} />}
        </div>
      </Card>
    </li>
  );
}

export function JobsPage() {
  useDocumentTitle(JOBS_PAGE_TITLE);
  const [searchParams] = useSearchParams();
  const highlight = searchParams.get('highlight');
  const subjects = useTeacherSubjects();
  const [subjectId, setSubjectId] = useState('');
  const [tab, setTab] = useState<Tab>('all');
  const [bidJob, setBidJob] = useState<Job | null>(null);
  // Jobs bid on (now, or answered "already bid") before the list refetches: their Submit Bid turns into Already Bid as
  // the dialog closes, so focus goes to the job rather than to a button about to be disabled.
  const [alreadyBid, setAlreadyBid] = useState<Set<string>>(() => new Set());
  const jobs = useJobs({ subjectId: subjectId || undefined, type: tab === 'all' ? undefined : tab });

  const list = jobs.data?.pages.flatMap((page) => page.jobs) ?? [];
  const counts = jobs.data?.pages[0]?.counts;
  const isHighlightShown = highlight !== null && list.some((job) => job.id === highlight);

  useEffect(() => {
    if (!isHighlightShown) return;
    document.getElementById(`job-${highlight}`)?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  }, [highlight, isHighlightShown]);

  const teacherSubjects = subjects.data ?? [];

  return (
    <JobsPageLayout>
      {subjects.isPending ? (
        <JobsBodySkeleton />
      ) : (
        <Tabs value={tab} onValueChange={(value) => setTab(value as Tab)} className="flex flex-col gap-6">
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <TabsList>
              <TabsTrigger value="all">All Jobs ({counts?.all ?? 0})</TabsTrigger>
              <TabsTrigger value="tutoring">Tutoring ({counts?.tutoring ?? 0})</TabsTrigger>
              <TabsTrigger value="assignment">Assignments ({counts?.assignment ?? 0})</TabsTrigger>
            </TabsList>
            {teacherSubjects.length > 1 && (
              <NativeSelect
                aria-label="Subject"
                className="sm:w-56"
                value={subjectId}
                onChange={(event) => setSubjectId(event.target.value)}
              >
                <option value="">All Subjects</option>
                {teacherSubjects.map((subject) => (
                  <option key={subject.id} value={subject.id}>
                    {subject.name}
                  </option>
                ))}
              </NativeSelect>
            )}
          </div>

          <TabsContent value={tab} className="mt-0">
            {jobs.isPending ? (
              <JobListSkeleton />
            ) : jobs.isError ? (
              <QueryError title="Could not load jobs" query={jobs} />
            ) : list.length === 0 ? (
              <EmptyState icon={<Briefcase />} headingLevel="h2" title={emptyTexts[tab]} />
            ) : (
              <div className="flex flex-col gap-4">
                <ul className="flex flex-col gap-3">
                  {list.map((job) => (
                    <JobCard
                      key={job.id}
                      job={job}
                      isHighlighted={job.id === highlight}
                      hasBid={job.alreadyBid || alreadyBid.has(job.id)}
                      onBid={() => setBidJob(job)}
                    />
                  ))}
                </ul>
                {jobs.hasNextPage && (
                  <Button
                    variant="outline"
                    className="self-center"
                    loading={jobs.isFetchingNextPage}
                    onClick={() => void jobs.fetchNextPage()}
                  >
                    Load more
                  </Button>
                )}
              </div>
            )}
          </TabsContent>
        </Tabs>
      )}

      {bidJob && (
        <BidDialog
          job={bidJob}
          onClose={() => setBidJob(null)}
          onBidRecorded={() => setAlreadyBid((current) => new Set(current).add(bidJob.id))}
        />
      )}
    </JobsPageLayout>
  );
}
