import { Paperclip, X } from 'lucide-react';
import { useRef } from 'react';
import { MIB, REQUEST_ATTACHMENT_TYPES, REQUEST_FILE } from '#shared/constants.ts';
import { attachmentMessages } from '#shared/schemas/requests.ts';
import { Button } from '#web/components/ui/button.tsx';
import { toastMessage } from '#web/lib/toast-message.ts';

const sizeLabel = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < MIB ? `${Math.round(bytes / 1024)} KB` : `${Math.round(bytes / MIB)} MB`;

/** Request files, checked as they are picked: 10 files, 10 MB each, images and documents. */
export function AttachmentPicker({ files, onChange }: { files: File[]; onChange: (files: File[]) => void }) {
  const inputRef = useRef<HTMLInputElement>(null);

  const add = (picked: File[]) => {
    const next = [...files];
    for (const file of picked) {
      if (next.length >= REQUEST_FILE.maxFiles) {
        toastMessage(attachmentMessages.tooMany);
        break;
      }
      if (file.size > REQUEST_FILE.maxBytes) {
        toastMessage(`File too large - Maximum file size is 10MB. Your file is ${(file.size / MIB).toFixed(1)} MB.`);
        continue;
      }
      if (!(REQUEST_ATTACHMENT_TYPES as readonly string[]).includes(file.type)) {
        toastMessage(attachmentMessages.badType);
        continue;
      }
      next.push(file);
    }
    onChange(next);
  };

  return (
    <div className="flex flex-col gap-3">
      <input
        ref={inputRef}
        type="file"
        multiple
        // Add files is the one control: an input only read by screen readers would be a second, invisible tab stop.
        hidden
        aria-label="Attach files"
        accept={REQUEST_ATTACHMENT_TYPES.join(',')}
        onChange={(event) => {
          add(Array.from(event.target.files ?? []));
          event.target.value = '';
        }}
      />
      <Button type="button" variant="outline" className="self-start" onClick={() => inputRef.current?.click()}>
        <Paperclip aria-hidden="true" />
        Add files
      </Button>
      <p className="text-sm text-muted-foreground">
        Up to {REQUEST_FILE.maxFiles} files, 10 MB each: images, PDF, Word, Excel or text.
      </p>
      {files.length > 0 && (
        <ul className="flex flex-col gap-1.5" aria-label="Attached files">
          {files.map((file, index) => (
            <li key={`${file.name}-${index}`} className="flex items-center gap-2 rounded-md border px-3 py-1.5 text-sm">
              <span className="min-w-0 flex-1 truncate">{file.name}</span>
              <span className="text-muted-foreground">{sizeLabel(file.size)}</span>
              <Button
                type="button"
                variant="ghost"
                size="icon"
                className="size-8 md:size-8"
                aria-label={`Remove ${file.name}`}
                onClick={() => onChange(files.filter((_, other) => other !== index))}
              >
                <X aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
