import { CalendarClock, Clock, Inbox } from 'lucide-react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { isClosedForDisplay } from '#shared/rules/expiry.ts';
import { formatBudget } from '#shared/rules/budget.ts';
import { requestDraftSchema } from '#shared/schemas/guru.ts';
import type { MyRequest } from '#shared/schemas/requests.ts';
import { paths } from '#shared/paths.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { Container } from '#web/components/ui/container.tsx';
import { EmptyState } from '#web/components/ui/empty-state.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { CardListSkeleton } from '#web/components/ui/card-list-skeleton.tsx';
import { QueryError } from '#web/components/ui/query-error.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { useMyRequests } from '../api.ts';
import { DirectRequestDialog } from '../components/direct-request-dialog.tsx';
import { NewRequestDialog } from '../components/new-request-dialog.tsx';
import {
  Countdown,
  DirectRequestNote,
  Fact,
  formatDate,
  offersLabel,
  RequestStatusBadge,
  requestTypeTitles,
} from '../components/request-display.tsx';
import { UserHeader } from '../components/user-header.tsx';

function RequestCardItem({ request }: { request: MyRequest }) {
  const isLive = !isClosedForDisplay(request) && (request.status === 'open' || request.status === 'pending');
  return (
    <li>
      <Link
        to={paths.student.offers.getHref(request.id)}
        className="block rounded-xl focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <Card className="gap-3 px-5 transition-colors hover:border-primary/50 hover:bg-accent/40">
          <div className="flex flex-wrap items-start justify-between gap-2">
            <div className="min-w-0">
              <h3 className="font-semibold">{requestTypeTitles[request.type]}</h3>
              <p className="text-sm text-muted-foreground">{request.subjectName}</p>
            </div>
            <div className="flex items-center gap-2">
              <span className="text-sm font-medium">{offersLabel(request.bidCount)}</span>
              <RequestStatusBadge status={request.status} openSince={request.openSince} />
            </div>
          </div>
          <DirectRequestNote request={request} />
          <p className="line-clamp-3 text-sm break-words">{request.description}</p>
          <dl className="flex flex-wrap gap-x-5 gap-y-1 text-sm text-muted-foreground">
            <Fact label="Budget:" emphasis>
              {formatBudget({ minCents: request.budgetMinCents, maxCents: request.budgetMaxCents })}
            </Fact>
            {request.deadline && <Fact label="Deadline:">{formatDate(request.deadline)}</Fact>}
            {isLive && (
              <div className="flex items-center gap-1">
                <dt>
                  <Clock aria-hidden="true" className="size-4" />
                  <span className="sr-only">Countdown</span>
                </dt>
                <dd>
                  <Countdown openSince={request.openSince} />
                </dd>
              </div>
            )}
            <div className="flex items-center gap-1">
              <dt>
                <CalendarClock aria-hidden="true" className="size-4" />
                <span className="sr-only">Posted</span>
              </dt>
              <dd>Posted {formatDate(request.createdAt)}</dd>
            </div>
          </dl>
        </Card>
      </Link>
    </li>
  );
}

function RequestList({ status, emptyText }: { status: 'live' | 'expired'; emptyText: string }) {
  const query = useMyRequests(status);
  if (query.isPending) {
    return <CardListSkeleton label="Loading requests" cardClassName="h-36" />;
  }
  if (query.isError) {
    return <QueryError title="Error fetching requests" query={query} />;
  }
  const requests = query.data.pages.flatMap((page) => page.requests);
  if (requests.length === 0) return <EmptyState icon={<Inbox />} title={emptyText} headingLevel="h3" />;
  return (
    <div className="flex flex-col gap-4">
      <ul className="flex flex-col gap-3">
        {requests.map((request) => (
          <RequestCardItem key={request.id} request={request} />
        ))}
      </ul>
      {query.hasNextPage && (
        <Button
          variant="outline"
          className="self-center"
          loading={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          Load more
        </Button>
      )}
    </div>
  );
}

export function MyRequestsPage() {
  useDocumentTitle('My Requests');
  const location = useLocation();
  const navigate = useNavigate();
  // "Ask a tutor" in Guru AI arrives with a draft in the navigation state; anything else there is ignored.
  const draft = requestDraftSchema.safeParse((location.state as { requestDraft?: unknown } | null)?.requestDraft).data;
  // Done with the draft: a reload or a later visit opens the page as usual.
  const dropDraft = () => void navigate(location.pathname, { replace: true, state: null });
  // "Ask {name} for help" and "Ask {name} again" arrive with the tutor (and subject) in the address.
  const [search] = useSearchParams();
  const askTutorId = search.get('ask');
  return (
    <Container className="flex max-w-4xl flex-col gap-6 py-8">
      <UserHeader backTo={paths.chat.getHref()} backLabel="Back to chat" />
      <PageHeader
        title="My Requests"
        description="Open requests will automatically close after 48 hours if no tutor is assigned."
        actions={<NewRequestDialog draft={draft} onDraftDone={draft ? dropDraft : undefined} />}
      />
      {askTutorId && (
        <DirectRequestDialog
          tutorId={askTutorId}
          subjectId={search.get('subject') ?? undefined}
          onClose={() => void navigate(location.pathname, { replace: true })}
        />
      )}
      <Tabs defaultValue="live" className="flex flex-col gap-4">
        <TabsList className="self-start">
          <TabsTrigger value="live">Live Requests</TabsTrigger>
          <TabsTrigger value="expired">Expired Requests</TabsTrigger>
        </TabsList>
        <TabsContent value="live">
          <RequestList status="live" emptyText="No live requests. Create one to get started!" />
        </TabsContent>
        <TabsContent value="expired">
          <RequestList status="expired" emptyText="No expired requests yet." />
        </TabsContent>
      </Tabs>
    </Container>
  );
}
