import type { ComponentProps, ReactNode } from 'react';
import { cn } from '#web/lib/utils.ts';

type PageHeaderProps = Omit<ComponentProps<'header'>, 'title'> & {
  /** The page's one <h1>. */
  title: ReactNode;
  description?: ReactNode;
  /** Small text above the title (a section name, say). */
  eyebrow?: ReactNode;
  /** Buttons on the right (below the title on phones). */
  actions?: ReactNode;
};

export function PageHeader({ title, description, eyebrow, actions, className, ...props }: PageHeaderProps) {
  return (
    <header
      data-slot="page-header"
      className={cn('flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between', className)}
      {...props}
    >
      <div className="flex min-w-0 flex-col gap-2">
        {eyebrow && <p className="text-sm font-medium text-primary">{eyebrow}</p>}
        <h1 className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">{title}</h1>
        {description && <p className="max-w-2xl text-base text-muted-foreground text-pretty">{description}</p>}
      </div>
      {actions && <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>}
    </header>
  );
}
