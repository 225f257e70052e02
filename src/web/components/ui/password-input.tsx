import { Eye, EyeOff } from 'lucide-react';
import { useState, type ComponentProps } from 'react';
import { cn } from '#web/lib/utils.ts';
import { Input } from './input.tsx';

type PasswordInputProps = Omit<ComponentProps<'input'>, 'type'>;

/**
 * A password field with a Show/Hide button. Every prop (id, aria-*, ref from react-hook-form)
 * goes to the <input>, so it works inside FormField like Input does.
 */
export function PasswordInput({ className, ...props }: PasswordInputProps) {
  const [isVisible, setVisible] = useState(false);
  return (
    <div className="relative">
      <Input type={isVisible ? 'text' : 'password'} className={cn('pr-12', className)} {...props} />
      <button
        type="button"
        className={cn(
          'absolute inset-y-0 right-0 inline-flex w-11 cursor-pointer items-center justify-center rounded-r-md text-muted-foreground',
          'transition-colors hover:text-foreground',
        )}
        aria-pressed={isVisible}
        onClick={() => setVisible((visible) => !visible)}
      >
        {isVisible ? <EyeOff aria-hidden="true" className="size-4" /> : <Eye aria-hidden="true" className="size-4" />}
        <span className="sr-only">Show password</span>
      </button>
    </div>
  );
}
