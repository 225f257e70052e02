import { CircleAlert, Heart, RotateCw, Search, SlidersHorizontal, UserSearch } from 'lucide-react';
import { useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '#shared/paths.ts';
import { BEST_MATCH_EXPLANATION } from '#shared/rules/best-match.ts';
import { DIRECTORY, DIRECTORY_SORTS, type DirectorySort } from '#shared/schemas/directory.ts';
import { Button } from '#web/components/ui/button.tsx';
import { CardListSkeleton } from '#web/components/ui/card-list-skeleton.tsx';
import { Container } from '#web/components/ui/container.tsx';
import { EmptyState } from '#web/components/ui/empty-state.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { errorMessage } from '#web/lib/api.ts';
import { useSession } from '#web/lib/auth-client.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { cn } from '#web/lib/utils.ts';
import { DIRECTORY_FILTERS, toDirectorySearch, useDirectory, type DirectoryFilter } from '../api.ts';
import { DirectoryFilters } from '../components/directory-filters.tsx';
import { TutorCard } from '../components/tutor-card.tsx';

const sortLabels: Record<DirectorySort, string> = {
  best: 'Best match',
  rating: 'Rating',
  price: 'Price (lowest first)',
  newest: 'Newest',
};

/** Find Tutors: every filter lives in the address, so a search can be shared and the back button steps back. */
export function DirectoryPage() {
  useDocumentTitle('Find Tutors');
  const [params, setParams] = useSearchParams();
  const search = toDirectorySearch(params);
  const directory = useDirectory(search);
  const { user } = useSession();
  const [areFiltersOpen, setAreFiltersOpen] = useState(false);
  const filtersId = useId();
  const sortId = useId();
  const searchId = useId();
  const query = params.get('q') ?? '';
  const sort = (params.get('sort') ?? 'best') as DirectorySort;
  const hasFilters = DIRECTORY_FILTERS.some((key) => key !== 'sort' && params.get(key));

  const setFilter = (key: DirectoryFilter, value: string | null) =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      if (value) next.set(key, value);
      else next.delete(key);
      return next;
    });
  const clearFilters = () => setParams(sort === 'best' ? {} : { sort });
  const tutors = directory.data?.pages.flatMap((page) => page.tutors) ?? [];

  return (
    <Container className="flex flex-col gap-8 py-10 sm:py-14">
      <PageHeader
        title="Find Tutors"
        description="Browse tutors by subject, rating, price and how fast they answer, and open a tutor's page to see their reviews."
        actions={
          <>
            {user?.role === 'student' && (
              <Button asChild variant="outline">
                <Link to={paths.savedTutors.getHref()}>
                  <Heart aria-hidden="true" />
                  Saved tutors
                </Link>
              </Button>
            )}
            <Button asChild variant="outline">
              <Link to={paths.search.experts.getHref()}>
                <UserSearch aria-hidden="true" />
                Search by VH number
              </Link>
            </Button>
          </>
        }
      />

      <form
        role="search"
        // The input is keyed by the address's text, so the back button puts the earlier text back.
        key={query}
        className="flex gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          const text = new FormData(event.currentTarget).get('q');
          setFilter('q', typeof text === 'string' ? text.trim() || null : null);
        }}
      >
        <Label htmlFor={searchId} className="sr-only">
          Search tutors
        </Label>
        <Input
          id={searchId}
          name="q"
          type="search"
          defaultValue={query}
          maxLength={DIRECTORY.queryMax}
          placeholder="Search by subject, topic or words in a tutor's profile"
          className="flex-1"
        />
        <Button type="submit">
          <Search aria-hidden="true" />
          Search
        </Button>
      </form>

      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[17rem_minmax(0,1fr)]">
        <aside aria-label="Filters" className="flex flex-col gap-3">
          <Button
            type="button"
            variant="outline"
            className="lg:hidden"
            aria-expanded={areFiltersOpen}
            aria-controls={filtersId}
            onClick={() => setAreFiltersOpen((open) => !open)}
          >
            <SlidersHorizontal aria-hidden="true" />
            {areFiltersOpen ? 'Hide filters' : 'Show filters'}
          </Button>
          <div id={filtersId} className={cn('flex-col gap-4 lg:flex', areFiltersOpen ? 'flex' : 'hidden')}>
            <DirectoryFilters params={params} setFilter={setFilter} />
            {hasFilters && (
              <Button type="button" variant="ghost" onClick={clearFilters}>
                Clear filters
              </Button>
            )}
          </div>
        </aside>

        <section aria-label="Tutors" className="flex min-w-0 flex-col gap-4">
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
            <div className="flex items-center gap-2">
              <Label htmlFor={sortId} className="shrink-0">
                Sort by
              </Label>
              <NativeSelect
                id={sortId}
                value={sort}
                onChange={(event) => setFilter('sort', event.target.value === 'best' ? null : event.target.value)}
              >
                {DIRECTORY_SORTS.map((value) => (
                  <option key={value} value={value}>
                    {sortLabels[value]}
                  </option>
                ))}
              </NativeSelect>
            </div>
          </div>
          {sort === 'best' && <p className="text-sm text-muted-foreground">{BEST_MATCH_EXPLANATION}</p>}

          {directory.isPending ? (
            <CardListSkeleton label="Loading tutors" cardClassName="h-40" />
          ) : directory.isError && !directory.isFetchNextPageError ? (
            <EmptyState
              role="alert"
              icon={<CircleAlert />}
              title="Error fetching tutors"
              description={errorMessage(directory.error)}
              action={
                <div className="flex flex-wrap justify-center gap-2">
                  <Button onClick={() => void directory.refetch()} loading={directory.isRefetching}>
                    {!directory.isRefetching && <RotateCw aria-hidden="true" />}
                    Retry
                  </Button>
                  {hasFilters && (
                    <Button variant="outline" onClick={clearFilters}>
                      Clear filters
                    </Button>
                  )}
                </div>
              }
            />
          ) : tutors.length === 0 ? (
            <EmptyState
              icon={<UserSearch />}
              title={hasFilters ? 'No tutors match your search' : 'No tutors yet'}
              description={
                hasFilters
                  ? 'Try fewer filters or other words.'
                  : 'Tutors appear here once they sign up and choose their subjects.'
              }
              action={
                hasFilters && (
                  <Button variant="outline" onClick={clearFilters}>
                    Clear filters
                  </Button>
                )
              }
            />
          ) : (
            <>
              <ul className="grid grid-cols-1 gap-4 xl:grid-cols-2">
                {tutors.map((tutor) => (
                  <li key={tutor.id} className="flex">
                    <TutorCard tutor={tutor} />
                  </li>
                ))}
              </ul>
              {directory.hasNextPage && (
                <Button
                  variant="outline"
                  className="self-center"
                  loading={directory.isFetchingNextPage}
                  onClick={() => void directory.fetchNextPage()}
                >
                  Show more tutors
                </Button>
              )}
              {directory.isFetchNextPageError && (
                <p role="alert" className="text-center text-sm text-error">
                  {errorMessage(directory.error)}
                </p>
              )}
            </>
          )}
        </section>
      </div>
    </Container>
  );
}
