import { Compass } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '#shared/paths.ts';
import { Button } from '#web/components/ui/button.tsx';
import { StatusPage } from '#web/components/ui/status-page.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <StatusPage
      eyebrow="404"
      title="Page not found"
      actions={
        <>
          <Button asChild>
            <Link to={paths.home.getHref()}>
              <Compass aria-hidden="true" />
              Go to Home
            </Link>
          </Button>
          <Button asChild variant="outline">
            <Link to={paths.contact.getHref()}>Contact us</Link>
          </Button>
        </>
      }
    >
      The page you&apos;re looking for doesn&apos;t exist or has been moved. Check the address, or start again from the
      home page.
    </StatusPage>
  );
}
