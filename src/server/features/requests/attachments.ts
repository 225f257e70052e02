import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Attachment } from '#shared/schemas/requests.ts';
import type { RequestAttachment } from '../../db/schema/requests.ts';
import { cleanFilename } from '../../platform/storage/filenames.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { uploadSchema, type Upload } from '../../platform/storage/upload.ts';

// Request attachments: typed from their bytes, stored under request-attachments/, served only through
// GET /api/requests/:id/attachments/:index.

const LEGACY_OFFICE_TYPES: Record<string, { type: string; extension: string }> = {
  '.doc': { type: 'application/msword', extension: 'doc' },
  '.xls': { type: 'application/vnd.ms-excel', extension: 'xls' },
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes with no signature that decode as UTF-8 without NUL characters: plain text. */
function isPlainText(bytes: Buffer) {
  if (bytes.includes(0)) return false;
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * The upload with the type the attachment rules check. Byte signatures cannot tell plain text (none) or the old
 * Word and Excel formats (one container format for both) apart, so those two cases are finished here: text by
 * its bytes, the container by its file name. Anything else keeps its detected type.
 */
export function classifyAttachment(upload: Upload): Upload {
  if (upload.type === 'application/octet-stream' && isPlainText(upload.bytes))
    return { ...upload, type: 'text/plain', extension: 'txt' };
  if (upload.type === 'application/x-cfb') {
    const legacy = LEGACY_OFFICE_TYPES[path.extname(upload.filename).toLowerCase()];
    if (legacy) return { ...upload, ...legacy };
  }
  return upload;
}

export const attachmentUploadSchema = uploadSchema.transform(classifyAttachment);

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
    await Promise.all(
      uploads.map((upload, index) => storage.put(attachments[index]!.file_path, upload.bytes, upload.type)),
    );
    return await write(attachments);
  } catch (error) {
    await Promise.all(attachments.map((attachment) => storage.delete(attachment.file_path)));
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
