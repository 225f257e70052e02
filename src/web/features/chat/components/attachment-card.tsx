import { Download, FileText } from 'lucide-react';
import { useState } from 'react';
import { toast } from '#web/lib/toast.ts';
import { CHAT_ATTACHMENT } from '#shared/constants.ts';
import { formatFileSize, shortenFileName } from '#shared/rules/file-size.ts';
import type { ChatMessage } from '#shared/schemas/chat.ts';
import { Button } from '#web/components/ui/button.tsx';
import { downloadFile } from '#web/lib/download.ts';
import { cn } from '#web/lib/utils.ts';

type Attachment = NonNullable<ChatMessage['attachment']>;

const isInlineImage = (fileType: string) => (CHAT_ATTACHMENT.inlineTypes as readonly string[]).includes(fileType);

/** An image preview (raster types only, max 260×280 px) or a file card; both with a download button. */
export function AttachmentCard({ attachment, isOwn }: { attachment: Attachment; isOwn: boolean }) {
  const [isDownloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      await downloadFile(attachment.url, attachment.originalFilename);
      toast.success('Download Complete', { duration: 3000 });
    } catch {
      toast.error('Download Failed');
    } finally {
      setDownloading(false);
    }
  };

  return (
    <div className="flex flex-col gap-2">
      {isInlineImage(attachment.fileType) && (
        <a href={attachment.url} target="_blank" rel="noopener noreferrer" className="block">
          <img
            src={attachment.url}
            alt={attachment.originalFilename}
            loading="lazy"
            className="max-h-[280px] max-w-[260px] rounded-md object-contain"
          />
        </a>
      )}
      <div className={cn('flex items-center gap-2 rounded-md p-2', isOwn ? 'bg-white/15' : 'bg-background/70')}>
        <FileText aria-hidden="true" className="size-5 shrink-0" />
        <span className="flex min-w-0 flex-1 flex-col">
          <span className="truncate text-sm font-medium" title={attachment.originalFilename}>
            {shortenFileName(attachment.originalFilename)}
          </span>
          <span className={cn('text-xs', isOwn ? 'text-primary-foreground' : 'text-muted-foreground')}>
            {formatFileSize(attachment.fileSize)}
          </span>
        </span>
        <Button
          variant="ghost"
          size="icon"
          className={cn('size-9 md:size-8', isOwn && 'hover:bg-white/20 hover:text-primary-foreground')}
          loading={isDownloading}
          aria-label={`Download ${attachment.originalFilename}`}
          onClick={() => void download()}
        >
          {!isDownloading && <Download aria-hidden="true" />}
        </Button>
      </div>
    </div>
  );
}
