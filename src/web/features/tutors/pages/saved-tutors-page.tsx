import { Heart } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '#shared/paths.ts';
import { Button } from '#web/components/ui/button.tsx';
import { CardListSkeleton } from '#web/components/ui/card-list-skeleton.tsx';
import { Container } from '#web/components/ui/container.tsx';
import { EmptyState } from '#web/components/ui/empty-state.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { QueryError } from '#web/components/ui/query-error.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { useSavedTutors } from '../api.ts';
import { TutorCard } from '../components/tutor-card.tsx';

/** A student's saved tutors, the latest saved first. */
export function SavedTutorsPage() {
  useDocumentTitle('Saved Tutors');
  const saved = useSavedTutors();
  const tutors = saved.data?.pages.flatMap((page) => page.tutors) ?? [];
  return (
    <Container className="flex max-w-4xl flex-col gap-6 py-8">
      <PageHeader
        title="Saved Tutors"
        description="Tutors you saved with the heart, the latest first. Ask one of them for help from their page."
        actions={
          <Button asChild variant="outline">
            <Link to={paths.tutors.getHref()}>Find Tutors</Link>
          </Button>
        }
      />
      {saved.isPending ? (
        <CardListSkeleton label="Loading saved tutors" cardClassName="h-40" />
      ) : saved.isError && !saved.isFetchNextPageError ? (
        <QueryError title="Error fetching saved tutors" query={saved} />
      ) : tutors.length === 0 ? (
        <EmptyState
          icon={<Heart />}
          title="No saved tutors yet"
          description="Tap the heart on a tutor's card or page to find them here."
          action={
            <Button asChild>
              <Link to={paths.tutors.getHref()}>Find Tutors</Link>
            </Button>
          }
        />
      ) : (
        <>
          <ul aria-label="Saved tutors" className="grid grid-cols-1 gap-4 md:grid-cols-2">
            {tutors.map((tutor) => (
              <li key={tutor.id} className="flex">
                <TutorCard tutor={tutor} />
              </li>
            ))}
          </ul>
          {saved.hasNextPage && (
            <Button
              variant="outline"
              className="self-center"
              loading={saved.isFetchingNextPage}
              onClick={() => void saved.fetchNextPage()}
            >
              Show more tutors
            </Button>
          )}
          {saved.isFetchNextPageError && (
            <p role="alert" className="text-center text-sm text-error">
              {errorMessage(saved.error)}
            </p>
          )}
        </>
      )}
    </Container>
  );
}
