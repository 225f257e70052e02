import { randomUUID } from 'node:crypto';
import type { Attachment } from '#shared/schemas/requests.ts';
import type { RequestAttachment } from '../../db/schema/requests.ts';
import { cleanFilename } from '../../platform/storage/filenames.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import type { Upload } from '../../http/upload.ts';

// Request attachments: typed from their bytes, stored under request-attachments/, served only through
// GET /api/requests/:id/attachments/:index.

const storageKey = () => `request-attachments/${randomUUID()}`;

/**
 * Stores the (already checked) uploads, then runs `write` with their descriptions. When `write` fails the files
 * are removed again, so a refused request leaves no file behind.
 */
export async function withStoredAttachments<T>(
  { storage, uploads }: { storage: Storage; uploads: Upload[] },
  write: (attachments: RequestAttachment[]) => Promise<T>,
): Promise<T> {
  const attachments = uploads.map((upload) => ({
    file_path: `${storageKey()}.${upload.extension ?? 'bin'}`,
    file_type: upload.type,
    original_filename: cleanFilename(upload.filename, { type: upload.type, extension: upload.extension ?? 'bin' }),
    file_size: upload.size,
  }));
  try {
    // Every put settled before any is undone, so none lands after its delete.
    const stored = await Promise.allSettled(
      uploads.map((upload, index) => storage.put(attachments[index]!.file_path, upload.path, upload.type)),
    );
    const failure = stored.find((result) => result.status === 'rejected');
    if (failure) throw failure.reason;
    return await write(attachments);
  } catch (error) {
    // A delete the store refuses too is logged there; the answer is the first failure.
    await Promise.allSettled(attachments.map((attachment) => storage.delete(attachment.file_path)));
    throw error;
  }
}

/** The public description of a request's files: the storage path stays on the server. */
export function toAttachmentList(requestId: string, attachments: RequestAttachment[]): Attachment[] {
  return attachments.map((attachment, index) => ({
    index,
    name: attachment.original_filename,
    type: attachment.file_type,
    size: attachment.file_size,
    url: `/api/requests/${requestId}/attachments/${index}`,
  }));
}
