import type { ReactNode } from 'react';
import { Card, CardContent } from '#web/components/ui/card.tsx';
import { Container } from '#web/components/ui/container.tsx';
import { cn } from '#web/lib/utils.ts';

type AuthPageShellProps = {
  /** The page's one <h1>. */
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  /** Under the card: "Already have an account? Sign in" and the like. */
  footer?: ReactNode;
  /** Registration needs more room than the one-field forms. */
  size?: 'default' | 'wide';
};

/** The centred card of the sign-in, registration and password pages. On phones the card's frame goes. */
export function AuthPageShell({ title, description, children, footer, size = 'default' }: AuthPageShellProps) {
  return (
    <Container className="flex flex-1 flex-col items-center py-8 sm:py-14">
      <div className={cn('w-full', size === 'wide' ? 'max-w-xl' : 'max-w-md')}>
        <div className="mb-6 text-center sm:mb-8">
          <h1 className="text-3xl font-bold tracking-tight text-balance">{title}</h1>
          {description && <p className="mt-2 text-base text-muted-foreground text-pretty">{description}</p>}
        </div>
        <Card className="max-sm:gap-0 max-sm:border-0 max-sm:bg-transparent max-sm:py-0 max-sm:shadow-none">
          <CardContent className="max-sm:px-0">{children}</CardContent>
        </Card>
        {footer && <div className="mt-6 text-center text-sm text-muted-foreground">{footer}</div>}
      </div>
    </Container>
  );
}

/** The look of the small text links on these pages. */
export const authLinkClasses = 'font-medium text-primary underline-offset-4 hover:underline';
