import type { ReactNode } from 'react';
import { paths } from '#shared/paths.ts';
import { CardListSkeleton } from '#web/components/ui/card-list-skeleton.tsx';
import { Container } from '#web/components/ui/container.tsx';
import { PageHeader } from '#web/components/ui/page-header.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { UserHeader } from './user-header.tsx';

// /teacher/jobs's frame (app/route-handle.ts) and the parts of the page it shares with it: part of the app's first
// download, so it holds nothing the page alone needs.

export const JOBS_PAGE_TITLE = 'Available Jobs';

/** The page's width and spacing, around its heading and what follows. */
export function JobsPageLayout({ children }: { children: ReactNode }) {
  return (
    <Container className="flex max-w-4xl flex-col gap-6 py-8">
      <UserHeader backTo={paths.chat.getHref()} backLabel="Back to chat" />
      <PageHeader
        title="Available Jobs in Your Subjects"
        description="Open requests from students in the subjects you teach, newest first."
      />
      {children}
    </Container>
  );
}

/** Grey cards where the jobs will be. */
export const JobListSkeleton = () => <CardListSkeleton label="Loading jobs" cardClassName="h-44" />;

/**
 * The page's body until the teacher's subjects are known, and with them whether a subject filter shows under the
 * tabs (on a phone): the tabs' bar (as tall as the tabs) and the cards grey.
 */
export function JobsBodySkeleton() {
  return (
    <div className="flex flex-col gap-6">
      <Skeleton className="h-12 w-72 max-w-full rounded-lg md:h-10" />
      <JobListSkeleton />
    </div>
  );
}

/** The page before its jobs, and who is asking, are known. */
export function JobsPageFrame() {
  useDocumentTitle(JOBS_PAGE_TITLE);
  return (
    <JobsPageLayout>
      <JobsBodySkeleton />
    </JobsPageLayout>
  );
}
