import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from '#web/lib/utils.ts';

const alertVariants = cva(
  'flex gap-3 rounded-lg border px-4 py-3 text-sm [&>svg]:mt-1 [&>svg]:size-4 [&>svg]:shrink-0',
  {
    variants: {
      variant: {
        info: 'border-sky-200 bg-sky-50 text-sky-900 dark:border-sky-900 dark:bg-sky-950 dark:text-sky-200',
        success:
          'border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
        warning:
          'border-amber-200 bg-amber-50 text-amber-950 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-200',
        destructive: 'border-red-200 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-200',
      },
    },
    defaultVariants: { variant: 'info' },
  },
);

type AlertProps = Omit<ComponentProps<'div'>, 'title'> &
  VariantProps<typeof alertVariants> & {
    icon?: ReactNode;
    title?: ReactNode;
  };

/**
 * A message box inside the page. Give it role="alert" (or role="status") only when it appears
 * in answer to something the user did, so it is read out at once.
 */
export function Alert({ className, variant, icon, title, children, ...props }: AlertProps) {
  return (
    <div data-slot="alert" className={cn(alertVariants({ variant }), className)} {...props}>
      {icon}
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        {title && <p className="font-semibold">{title}</p>}
        {children && <div className="leading-6 [&_p]:leading-6">{children}</div>}
      </div>
    </div>
  );
}
