import type { ReactNode } from 'react';
import { Container } from '#web/components/ui/container.tsx';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

export type TocEntry = { id: string; label: string };

type StaticPageProps = {
  /** The <h1>, also used for the tab title unless `documentTitle` is given. */
  title: string;
  documentTitle?: string;
  eyebrow?: string;
  intro?: ReactNode;
  /** A line under the intro, such as the effective date. */
  meta?: ReactNode;
  /** Section links shown beside the text on wide screens. */
  toc?: TocEntry[];
  children: ReactNode;
};

/** The frame of the long-form pages: a title band, then readable prose. */
export function StaticPage({ title, documentTitle, eyebrow, intro, meta, toc, children }: StaticPageProps) {
  useDocumentTitle(documentTitle ?? title);
  return (
    <>
      <div className="border-b bg-surface">
        <Container className="py-12 sm:py-16">
          {eyebrow && <p className="text-sm font-semibold tracking-wide text-primary">{eyebrow}</p>}
          <h1 className="mt-2 max-w-3xl text-4xl font-bold tracking-tight text-balance sm:text-5xl">{title}</h1>
          {intro && <p className="mt-5 max-w-2xl text-lg leading-8 text-muted-foreground text-pretty">{intro}</p>}
          {meta && <p className="mt-4 text-sm font-medium text-muted-foreground">{meta}</p>}
        </Container>
      </div>
      <Container className="py-12 sm:py-16">
        <div className={toc ? 'lg:grid lg:grid-cols-[14rem_minmax(0,1fr)] lg:gap-16' : undefined}>
          {toc && (
            <nav aria-labelledby="toc-heading" className="hidden lg:block">
              <div className="sticky top-24">
                <h2 id="toc-heading" className="text-sm font-semibold">
                  On this page
                </h2>
                <ul className="mt-3 flex flex-col gap-1 border-l text-sm">
                  {toc.map((entry) => (
                    <li key={entry.id}>
                      <a
                        href={`#${entry.id}`}
                        className="-ml-px block border-l border-transparent py-1 pl-4 text-muted-foreground hover:border-foreground hover:text-foreground"
                      >
                        {entry.label}
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            </nav>
          )}
          <article className="prose-content">{children}</article>
        </div>
      </Container>
    </>
  );
}
