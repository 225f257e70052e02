import { MessageCircle, SearchX, UserSearch } from 'lucide-react';
import { useId, useState, type SubmitEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import {
  vhNumberInputSchema,
  VH_SEARCH_KINDS,
  type VhSearchKind,
  type VhSearchResult,
} from '#shared/schemas/search.ts';
import { paths } from '#shared/paths.ts';
import { TutorTrustLink } from '#web/components/tutor-trust.tsx';
import { Alert } from '#web/components/ui/alert.tsx';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { Container } from '#web/components/ui/container.tsx';
import { EmptyState } from '#web/components/ui/empty-state.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { toastMessage } from '#web/lib/toast-message.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { useOpenRoom } from '#web/features/chat/api.ts';
import { useVhSearch } from '../api.ts';

const roleLabels = { student: 'Student', teacher: 'Expert' } as const;

function ResultCard({ person, kind }: { person: VhSearchResult; kind: VhSearchKind }) {
  const navigate = useNavigate();
  const openRoom = useOpenRoom();
  const connect = () =>
    openRoom.mutate(person.id, {
      onSuccess: ({ created }) => {
        if (created) toast.success('Connected!', { description: `You can now chat with ${person.username}` });
        else toast.info('Already connected', { description: VH_SEARCH_KINDS[kind].alreadyConnected });
        void navigate(paths.chat.getHref(person.id));
      },
      onError: (error) => toast.error('Could not connect', { description: errorMessage(error) }),
    });

  return (
    <li>
      <Card className="flex-row items-center gap-4 px-4 py-4 sm:px-5">
        <Avatar name={person.username} src={person.image} className="size-12 text-lg" />
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <p className="truncate font-semibold">{person.username}</p>
          <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            <Badge variant="secondary">{roleLabels[person.role]}</Badge>
            <span>VH {person.vhNumber}</span>
          </p>
          {person.specializations.length > 0 && (
            <p className="text-sm text-muted-foreground">
              <span className="sr-only">Subjects: </span>
              {person.specializations.map((subject) => subject.name).join(', ')}
            </p>
          )}
          {person.role === 'teacher' && <TutorTrustLink tutorId={person.id} trust={person} />}
        </div>
        <Button
          onClick={connect}
          disabled={openRoom.isPending}
          aria-label={`Connect with ${person.username}`}
          className="shrink-0"
        >
          <MessageCircle aria-hidden="true" />
          <span className="hidden sm:inline">{openRoom.isPending ? 'Connecting…' : 'Connect'}</span>
        </Button>
      </Card>
    </li>
  );
}

function Results({ kind, vh }: { kind: VhSearchKind; vh: string }) {
  const search = useVhSearch(kind, vh);
  if (search.isPending)
    return (
      <div role="status" className="flex flex-col gap-3" aria-busy="true" aria-label="Searching">
        <Skeleton className="h-20 w-full rounded-xl" />
        <Skeleton className="h-20 w-full rounded-xl" />
      </div>
    );
  if (search.isError)
    return (
      <Alert variant="destructive" title="Search failed">
        {errorMessage(search.error)}
      </Alert>
    );
  const { results } = search.data;
  if (results.length === 0)
    return (
      <EmptyState
        icon={<SearchX />}
        title={VH_SEARCH_KINDS[kind].noResults.title}
        description={VH_SEARCH_KINDS[kind].noResults.description}
      />
    );
  return (
    <section aria-label="Search results" className="flex flex-col gap-3">
      <p className="text-sm text-muted-foreground" role="status">
        {results.length === 1 ? '1 person' : `${results.length} people`} with VH number {vh}
      </p>
      <ul className="flex flex-col gap-3">
        {results.map((person) => (
          <ResultCard key={person.id} person={person} kind={kind} />
        ))}
      </ul>
    </section>
  );
}

const titles = { students: 'Search for a Student', experts: 'Search for an Expert' } as const;
const descriptions = {
  students: 'Enter a student’s 3-digit Virtual Help number to find them and start a chat.',
  experts: 'Enter an expert’s 3-digit Virtual Help number to find them and start a chat.',
} as const;

/** One screen for both searches; the VH number searched lives in the address (?vh=), so Back shows it again. */
export function VhSearch({ kind }: { kind: VhSearchKind }) {
  useDocumentTitle(titles[kind]);
  const [params, setParams] = useSearchParams();
  const searched = params.get('vh');
  const valid = searched === null ? null : vhNumberInputSchema.safeParse(searched);
  const [draft, setDraft] = useState(searched ?? '');
  const inputId = useId();

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = vhNumberInputSchema.safeParse(draft);
    if (!parsed.success) {
      toastMessage(parsed.error.issues[0]!.message);
      return;
    }
    setParams({ vh: parsed.data });
  };

  return (
    <Container className="flex max-w-2xl flex-col gap-6 py-8 sm:py-12">
      <PageHeader title={titles[kind]} description={descriptions[kind]} />
      <form onSubmit={submit} className="flex flex-col gap-2" role="search" noValidate>
        <Label htmlFor={inputId}>Virtual Help number</Label>
        <div className="flex gap-2">
          <Input
            id={inputId}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            inputMode="numeric"
            autoComplete="off"
            placeholder="e.g. 123"
            maxLength={12}
            className="flex-1"
          />
          <Button type="submit">
            <UserSearch aria-hidden="true" />
            Search
          </Button>
        </div>
      </form>
      {valid?.success && <Results kind={kind} vh={valid.data} />}
    </Container>
  );
}
