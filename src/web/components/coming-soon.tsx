import { Hourglass } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '#shared/paths.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Container } from '#web/components/ui/container.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

/** Stand-in for a page whose feature is still being built; the feature's page file replaces it. */
export function ComingSoon({ title }: { title: string }) {
  useDocumentTitle(title);
  return (
    <Container className="flex flex-1 flex-col items-center justify-center py-20 text-center sm:py-28">
      <div
        aria-hidden="true"
        className="mb-6 flex size-14 items-center justify-center rounded-full bg-primary-soft text-primary-soft-foreground"
      >
        <Hourglass className="size-7" />
      </div>
      <h1 className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">{title}</h1>
      <p className="mt-3 max-w-md text-base text-muted-foreground">This part of Virtual Help is on its way.</p>
      <Button asChild className="mt-8">
        <Link to={paths.home.getHref()}>Back to Home</Link>
      </Button>
    </Container>
  );
}
