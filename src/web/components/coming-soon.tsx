import { Hourglass } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '#shared/paths.ts';
import { Button } from '#web/components/ui/button.tsx';
import { StatusPage } from '#web/components/ui/status-page.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

/** Stand-in for a page whose feature is still being built; the feature's page file replaces it. */
export function ComingSoon({ title }: { title: string }) {
  useDocumentTitle(title);
  return (
    <StatusPage
      icon={<Hourglass />}
      title={title}
      actions={
        <Button asChild>
          <Link to={paths.home.getHref()}>Back to Home</Link>
        </Button>
      }
    >
      This part of Virtual Help is on its way.
    </StatusPage>
  );
}
