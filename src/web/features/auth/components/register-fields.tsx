import { GraduationCap, Presentation, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import type { Role } from '#shared/constants.ts';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { authLinkClasses } from './auth-page-shell.tsx';

// The registration form's own controls.

export const roleOptions: { value: Role; label: string; text: string; icon: LucideIcon }[] = [
  { value: 'student', label: 'Student', text: 'I want help with my studies', icon: GraduationCap },
  { value: 'teacher', label: 'Teacher', text: 'I want to teach and find students', icon: Presentation },
];

type ConsentCheckboxProps = {
  id: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  onBlur: () => void;
  ref: (element: HTMLButtonElement | null) => void;
  error: string | undefined;
  children: ReactNode;
};

export function ConsentCheckbox({ id, checked, onCheckedChange, onBlur, ref, error, children }: ConsentCheckboxProps) {
  const errorId = `${id}-error`;
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-start gap-3">
        <Checkbox
          ref={ref}
          id={id}
          checked={checked}
          onCheckedChange={(value) => onCheckedChange(value === true)}
          onBlur={onBlur}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="mt-0.5"
        />
        <Label htmlFor={id} className="block text-sm leading-snug font-normal">
          {children}
        </Label>
      </div>
      {error && (
        <p id={errorId} className="pl-8 text-sm font-medium text-error md:pl-7">
          {error}
        </p>
      )}
    </div>
  );
}

/** A link in a label that opens in a new tab, so the half-filled form stays. */
export function NewTabLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <a href={to} target="_blank" rel="noopener noreferrer" className={authLinkClasses}>
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}
