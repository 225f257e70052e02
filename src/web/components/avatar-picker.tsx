import { ImageUp, X } from 'lucide-react';
import { useEffect, useId, useRef, type ComponentProps, type Ref } from 'react';
import { AVATAR } from '#shared/constants.ts';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { Button, buttonVariants } from '#web/components/ui/button.tsx';
import { useObjectUrl } from '#web/lib/use-object-url.ts';
import { cn } from '#web/lib/utils.ts';

/** What the file dialog offers: the avatar types of SPEC.md §9 by extension and by MIME type. */
const AVATAR_ACCEPT = ['.jpg', '.jpeg', '.png', '.webp', ...AVATAR.types].join(',');

type AvatarPickerProps = Omit<ComponentProps<'input'>, 'type' | 'value' | 'onChange' | 'ref'> & {
  /** For the initial letter when there is no picture. */
  displayName: string;
  /** The picture in use now (shown until a valid file is picked). */
  currentImage?: string | null | undefined;
  file: File | undefined;
  /** Whether `file` passed the avatar rules; an invalid file is not previewed. */
  isFileValid: boolean;
  onFileChange: (file: File | undefined) => void;
  ref?: Ref<HTMLInputElement>;
};

/**
 * File input with a round preview, the chosen file's name and a Remove button. Props such as id and
 * aria-* go to the <input>, so it sits inside FormField like any other control. The input itself is
 * visually hidden (the browser's "No file chosen" box does not fit a phone); it keeps the focus and
 * keyboard, and its button-styled label shows the focus ring.
 */
export function AvatarPicker({
  displayName,
  currentImage,
  file,
  isFileValid,
  onFileChange,
  ref,
  className,
  id,
  ...inputProps
}: AvatarPickerProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const inputRef = useRef<HTMLInputElement | null>(null);
  const previewUrl = useObjectUrl(file && isFileValid ? file : undefined);

  // Clearing the form (reset) must also clear what the browser shows as the chosen file.
  useEffect(() => {
    if (!file && inputRef.current) inputRef.current.value = '';
  }, [file]);

  const setRefs = (node: HTMLInputElement | null) => {
    inputRef.current = node;
    if (typeof ref === 'function') ref(node);
    else if (ref) ref.current = node;
  };

  return (
    <div className={cn('flex items-center gap-4', className)}>
      <Avatar name={displayName || '?'} src={previewUrl ?? currentImage} className="size-16 text-2xl sm:size-20" />
      <div className="flex min-w-0 flex-1 flex-col items-start gap-1.5">
        <input
          ref={setRefs}
          id={inputId}
          type="file"
          accept={AVATAR_ACCEPT}
          className="peer sr-only"
          onChange={(event) => onFileChange(event.target.files?.[0])}
          {...inputProps}
        />
        <label
          htmlFor={inputId}
          className={cn(
            buttonVariants({ variant: 'outline', size: 'sm' }),
            'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ring peer-focus-visible:outline-solid',
            'peer-disabled:pointer-events-none peer-disabled:opacity-60 peer-aria-invalid:border-error',
          )}
        >
          <ImageUp aria-hidden="true" />
          {file ? 'Choose another picture' : 'Choose a picture'}
        </label>
        <p className="max-w-full truncate text-sm text-muted-foreground">{file ? file.name : 'No picture chosen'}</p>
        {file && (
          <Button
            variant="ghost"
            size="sm"
            className="-ml-3 w-fit"
            onClick={() => {
              onFileChange(undefined);
              inputRef.current?.focus();
            }}
          >
            <X aria-hidden="true" />
            Remove picture
          </Button>
        )}
      </div>
    </div>
  );
}
