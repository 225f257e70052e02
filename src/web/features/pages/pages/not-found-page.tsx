import { Compass } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '#shared/paths.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Container } from '#web/components/ui/container.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <Container className="flex flex-1 flex-col items-center justify-center py-20 text-center sm:py-28">
      <p className="text-sm font-semibold tracking-wide text-primary">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-balance sm:text-4xl">Page not found</h1>
      <p className="mt-3 max-w-md text-base text-muted-foreground">
        The page you&apos;re looking for doesn&apos;t exist or has been moved. Check the address, or start again from
        the home page.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button asChild>
          <Link to={paths.home.getHref()}>
            <Compass aria-hidden="true" />
            Go to Home
          </Link>
        </Button>
        <Button asChild variant="outline">
          <Link to={paths.contact.getHref()}>Contact us</Link>
        </Button>
      </div>
    </Container>
  );
}
