import { Check, Circle } from 'lucide-react';
import { cn } from '#web/lib/utils.ts';

type PasswordRule = { label: string; test: (password: string) => boolean };

/** Registration and sign-in: SPEC.md §2's single checklist item. */
export const basicPasswordRules: PasswordRule[] = [
  { label: 'At least 6 characters', test: (value) => value.length >= 6 },
];

/** The reset screen's stricter rule (SPEC.md §5 New password). */
export const strongPasswordRules: PasswordRule[] = [
  { label: 'At least 8 characters', test: (value) => value.length >= 8 },
  { label: 'One uppercase letter', test: (value) => /[A-Z]/.test(value) },
  { label: 'One lowercase letter', test: (value) => /[a-z]/.test(value) },
  { label: 'One number', test: (value) => /[0-9]/.test(value) },
];

type PasswordChecklistProps = {
  password: string;
  rules: PasswordRule[];
  className?: string;
};

/**
 * Live requirement list under a password field. Each item says "met" / "not met" to screen
 * readers, and the list is a polite live region, so a change of state is announced.
 */
export function PasswordChecklist({ password, rules, className }: PasswordChecklistProps) {
  return (
    <ul aria-live="polite" aria-label="Password requirements" className={cn('flex flex-col gap-1', className)}>
      {rules.map((rule) => {
        const isMet = rule.test(password);
        return (
          <li
            key={rule.label}
            data-met={isMet}
            className={cn(
              'flex items-center gap-2 text-sm',
              isMet ? 'text-emerald-700 dark:text-emerald-400' : 'text-muted-foreground',
            )}
          >
            {isMet ? (
              <Check aria-hidden="true" className="size-4 shrink-0" strokeWidth={3} />
            ) : (
              <Circle aria-hidden="true" className="size-4 shrink-0" />
            )}
            <span>
              {rule.label}
              <span className="sr-only">{isMet ? ': met' : ': not met'}</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
