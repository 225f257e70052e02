import { Slot } from 'radix-ui';
import { useId, type ReactElement, type ReactNode } from 'react';
import { cn } from '#web/lib/utils.ts';
import { Label } from './label.tsx';

type FormFieldProps = {
  label: ReactNode;
  /** The one control (Input, Textarea, NativeSelect...): it receives id, aria-invalid and aria-describedby. */
  children: ReactElement;
  error?: string | undefined;
  description?: ReactNode;
  /** Defaults to a generated id. */
  id?: string;
  className?: string;
  /** Tells assistive technology the field must be filled (the form validates; no browser bubble). */
  required?: boolean;
};

export function FormField({ label, children, error, description, id, className, required }: FormFieldProps) {
  const generatedId = useId();
  const controlId = id ?? generatedId;
  const descriptionId = description ? `${controlId}-description` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [descriptionId, errorId].filter(Boolean).join(' ') || undefined;

  return (
    <div data-slot="form-field" className={cn('flex flex-col gap-2', className)}>
      <Label htmlFor={controlId}>{label}</Label>
      <Slot.Root
        id={controlId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        aria-required={required || undefined}
      >
        {children}
      </Slot.Root>
      {description && (
        // A <div>, so a description may hold a list (a password checklist) or a live status line.
        <div id={descriptionId} className="text-sm text-muted-foreground">
          {description}
        </div>
      )}
      {error && (
        <p id={errorId} className="text-sm font-medium text-error">
          {error}
        </p>
      )}
    </div>
  );
}
