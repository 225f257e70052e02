import type { ReactNode } from 'react';
import { cn } from '#web/lib/utils.ts';
import { Container } from './container.tsx';

const tones = {
  brand: 'bg-primary-soft text-primary-soft-foreground',
  warning: 'bg-amber-50 text-amber-700 dark:bg-amber-950 dark:text-amber-300',
  danger: 'bg-red-50 text-red-700 dark:bg-red-950 dark:text-red-300',
} as const;

type StatusPageProps = {
  /** A round badge above the title; or `eyebrow`, a short line such as "404". */
  icon?: ReactNode;
  eyebrow?: string;
  tone?: keyof typeof tones;
  title: string;
  children: ReactNode;
  /** Buttons or links that say where to go from here. */
  actions: ReactNode;
};

/** A whole page that says what happened and where to go instead: not found, refused, failed, not yet there. */
export function StatusPage({ icon, eyebrow, tone = 'brand', title, children, actions }: StatusPageProps) {
  return (
    <Container className="flex flex-1 flex-col items-center justify-center py-20 text-center sm:py-28">
      {icon && (
        <div
          aria-hidden="true"
          className={cn('mb-6 flex size-14 items-center justify-center rounded-full [&_svg]:size-7', tones[tone])}
        >
          {icon}
        </div>
      )}
      {eyebrow && <p className="mb-2 text-sm font-semibold tracking-wide text-primary">{eyebrow}</p>}
      <h1 className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">{title}</h1>
      <p className="mt-3 max-w-lg text-base text-muted-foreground text-pretty">{children}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">{actions}</div>
    </Container>
  );
}
