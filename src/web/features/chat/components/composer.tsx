import { Camera, FileText, Image as ImageIcon, Paperclip, SendHorizontal, X } from 'lucide-react';
import { Fragment, useEffect, useRef, useState, type SubmitEvent, type KeyboardEvent, type ReactNode } from 'react';
import { toast } from '#web/lib/toast.ts';
import { CHAT_ATTACHMENT } from '#shared/constants.ts';
import { formatFileSize, shortenFileName } from '#shared/rules/file-size.ts';
import { checkMessage, MODERATION_NOTICE_TITLE, type ModerationMatch } from '#shared/rules/moderation.ts';
import { Button } from '#web/components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '#web/components/ui/dropdown-menu.tsx';
import { ApiError, errorMessage } from '#web/lib/api.ts';
import { useObjectUrl } from '#web/lib/use-object-url.ts';
import { cn } from '#web/lib/utils.ts';
import { uploadChatFile } from '../api.ts';
import { useDraft } from '../use-draft.ts';

/** SPEC.md §9: the textarea grows up to 150 px. */
const MAX_TEXTAREA_HEIGHT = 150;

/** null: sent; `blocked`: refused by moderation; `unsent`: a quiet send that failed otherwise (nothing to show). */
export type SendOutcome =
  { blocked: { message: string; matches: ModerationMatch[] } } | { blocked?: undefined; unsent: true } | null;

type ComposerProps = {
  /**
   * Sends the text and uploaded file; resolves with `blocked` when the server refused it by moderation. `quiet`: the
   * composer expects a refusal and shows it already, so nothing is shown as on its way.
   */
  onSend: (
    input: { content: string; attachment?: { fileKey: string; originalFilename: string } },
    options?: { quiet?: boolean },
  ) => Promise<SendOutcome>;
  /** Extra controls beside the attach menu (the teacher's Schedule meeting). */
  extra?: ReactNode;
  placeholder?: string;
  /** Off for Guru AI: questions to the assistant are not read by another person. */
  isModerated?: boolean;
  /** Where the unsent text is kept on the device (use-draft.ts). */
  draftKey?: string;
};

export function Composer({
  onSend,
  extra,
  placeholder = 'Type a message...',
  isModerated = true,
  draftKey,
}: ComposerProps) {
  const moderate = (text: string) =>
    isModerated ? checkMessage(text, { patterns: [], ownOrigins: [window.location.origin] }) : ({ ok: true } as const);
  const [text, setText] = useState('');
  useDraft(draftKey, text, (draft) => setText((current) => (current === '' ? draft : current)));
  const [file, setFile] = useState<File | null>(null);
  const previewUrl = useObjectUrl(file?.type.startsWith('image/') ? file : null);
  const [progress, setProgress] = useState(0);
  const [isUploading, setUploading] = useState(false);
  const [blocked, setBlocked] = useState<{ message: string; matches: ModerationMatch[]; text: string } | null>(null);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const photoRef = useRef<HTMLInputElement>(null);
  const documentRef = useRef<HTMLInputElement>(null);
  const cameraRef = useRef<HTMLInputElement>(null);

  // Grow with the text, up to 150 px, then scroll.
  useEffect(() => {
    const element = textareaRef.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, MAX_TEXTAREA_HEIGHT)}px`;
  }, [text]);

  const markBlocked = (message: string, matches: ModerationMatch[], blockedText: string) => {
    toast.error(MODERATION_NOTICE_TITLE, { description: message, duration: 8000 });
    setBlocked({ message, matches, text: blockedText });
    const first = matches[0];
    // After the restored text is rendered: select the first offending part.
    requestAnimationFrame(() => {
      const element = textareaRef.current;
      if (!element) return;
      element.focus();
      if (first) element.setSelectionRange(first.start, first.end);
    });
  };

  const onTextChange = (next: string) => {
    setText(next);
    if (!blocked) return;
    // While a block is shown, follow the edits: the marks go once the text passes.
    const result = moderate(next);
    setBlocked(
      result.ok
        ? next === blocked.text
          ? blocked
          : null
        : { message: result.message, matches: result.matches, text: next },
    );
  };

  const clearFile = () => {
    setFile(null);
    setProgress(0);
    for (const ref of [photoRef, documentRef, cameraRef]) if (ref.current) ref.current.value = '';
  };

  const isEmpty = text.trim() === '' && !file;
  const isBusy = isUploading;

  const submit = async () => {
    if (isEmpty || isBusy) return;
    const content = text.trim();
    if (content) {
      // The textarea's own text, so the offsets of the matches point into what the sender sees.
      const result = moderate(text);
      if (!result.ok) {
        markBlocked(result.message, result.matches, text);
        // Still sent, without the file: the server is the one that refuses, and it keeps the attempt for the admins.
        void onSend({ content }, { quiet: true }).then((outcome) => {
          if (outcome) return;
          // Sent after all (the server's rules let it through): the composer lets go of it, unless edited meanwhile.
          setText((current) => (current === text ? '' : current));
          setBlocked((current) => (current?.text === text ? null : current));
        });
        return;
      }
    }
    let attachment: { fileKey: string; originalFilename: string } | undefined;
    if (file) {
      setUploading(true);
      setProgress(0);
      try {
        const uploaded = await uploadChatFile(file, setProgress);
        attachment = { fileKey: uploaded.fileKey, originalFilename: uploaded.originalFilename };
      } catch (error) {
        // Refused by the server (type, size): "File Upload Failed" with the reason; no answer at all: "Error uploading file".
        const isRefused = error instanceof ApiError && error.status >= 400 && error.status < 500;
        toast.error(isRefused ? 'File Upload Failed' : 'Error uploading file', { description: errorMessage(error) });
        setUploading(false);
        setProgress(0);
        return;
      }
      setUploading(false);
    }
    setText('');
    clearFile();
    setBlocked(null);
    const outcome = await onSend({ content, ...(attachment ? { attachment } : {}) });
    if (outcome?.blocked) {
      // Back into the composer (unless something new was typed meanwhile), the offending parts marked.
      // The server's offsets point into the trimmed text that was sent: restore exactly that.
      setText((current) => (current === '' ? content : current));
      markBlocked(outcome.blocked.message, outcome.blocked.matches, content);
    }
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submit();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  const pickFile = (next: File | undefined) => {
    if (next) setFile(next);
  };

  return (
    <form
      onSubmit={onSubmit}
      className="flex flex-col gap-2 border-t bg-background p-2 sm:p-3"
      aria-label="Send a message"
    >
      {file && (
        <div className="flex items-center gap-3 rounded-lg border bg-muted/50 p-2">
          {previewUrl ? (
            <img src={previewUrl} alt="Attachment preview" className="size-14 rounded-md object-cover" />
          ) : (
            <FileText aria-hidden="true" className="size-8 text-muted-foreground" />
          )}
          <span className="flex min-w-0 flex-1 flex-col">
            <span className="truncate text-sm font-medium" title={file.name}>
              {shortenFileName(file.name)}
            </span>
            <span className="text-xs text-muted-foreground">{formatFileSize(file.size)}</span>
            {progress > 0 && (
              <span
                role="progressbar"
                aria-label="Upload progress"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={progress}
                className="mt-1 block h-1.5 w-full overflow-hidden rounded-full bg-muted"
              >
                <progress value={progress} max={100} className="sr-only" />
                <span className="block h-full bg-primary transition-[width]" style={{ width: `${progress}%` }} />
              </span>
            )}
          </span>
          <Button variant="ghost" size="icon" aria-label="Remove attachment" onClick={clearFile} disabled={isUploading}>
            <X aria-hidden="true" />
          </Button>
        </div>
      )}

      <div aria-live="polite" className="empty:hidden">
        {blocked && (
          <div className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-200">
            <p className="font-semibold">
              {MODERATION_NOTICE_TITLE}: {blocked.message}
            </p>
            {blocked.matches.length > 0 && (
              <p>
                Please edit:{' '}
                {blocked.matches.map((match, index) => (
                  <Fragment key={`${match.start}-${match.end}`}>
                    {index > 0 && ', '}
                    <mark className="rounded-sm bg-red-200 px-0.5 text-red-950">
                      {blocked.text.slice(match.start, match.end)}
                    </mark>
                  </Fragment>
                ))}
              </p>
            )}
          </div>
        )}
      </div>

      <div className="flex items-end gap-1 sm:gap-2">
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon" aria-label="Attach a file" disabled={isUploading}>
              <Paperclip aria-hidden="true" className="size-5" />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="start" side="top">
            <DropdownMenuItem onSelect={() => photoRef.current?.click()}>
              <ImageIcon aria-hidden="true" />
              Photos
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => documentRef.current?.click()}>
              <FileText aria-hidden="true" />
              Document
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => cameraRef.current?.click()}>
              <Camera aria-hidden="true" />
              Camera
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
        <input
          ref={photoRef}
          type="file"
          accept="image/*"
          hidden
          aria-label="Attach photo"
          onChange={(event) => pickFile(event.target.files?.[0])}
        />
        <input
          ref={documentRef}
          type="file"
          accept={CHAT_ATTACHMENT.documentExtensions.join(',')}
          hidden
          aria-label="Attach document"
          onChange={(event) => pickFile(event.target.files?.[0])}
        />
        <input
          ref={cameraRef}
          type="file"
          accept="image/*"
          capture="environment"
          hidden
          aria-label="Take a photo"
          onChange={(event) => pickFile(event.target.files?.[0])}
        />
        {extra}
        <textarea
          ref={textareaRef}
          rows={1}
          value={text}
          onChange={(event) => onTextChange(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder={placeholder}
          aria-label="Message"
          aria-invalid={blocked ? true : undefined}
          className={cn(
            'max-h-[150px] min-h-11 flex-1 resize-none rounded-2xl border border-input bg-background px-4 py-2.5 text-base leading-6 shadow-xs md:text-sm',
            'placeholder:text-muted-foreground focus-visible:border-ring focus-visible:outline-offset-1',
            'aria-invalid:border-error',
          )}
        />
        <Button
          type="submit"
          size="icon"
          className="rounded-full"
          aria-label="Send"
          disabled={isEmpty}
          loading={isBusy}
        >
          {!isBusy && <SendHorizontal aria-hidden="true" className="size-5" />}
        </Button>
      </div>
    </form>
  );
}
