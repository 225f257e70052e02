import { randomUUID } from 'node:crypto';
import { CHAT_ATTACHMENT, type ChatAttachmentType } from '#shared/constants.ts';
import { chatMessages } from '#shared/schemas/chat.ts';
import { fieldError } from '../../http/errors.ts';
import type { Executor } from '../../db/client.ts';
import { assertStorageLeft, recordStoredFiles } from '../../platform/storage/quota.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { cleanFilename } from '../../platform/storage/filenames.ts';
import type { Upload } from '../../platform/storage/upload.ts';

// Chat attachments (SPEC.md §5 "Uploads in chat"): the type comes from the bytes, never from the name or the
// client's claim. file-type recognises the binary formats; plain text and SVG have no signature, so they are
// recognised here from their content.

const CFB_STREAMS: Array<[stream: string, type: ChatAttachmentType, extension: string]> = [
  ['WordDocument', 'application/msword', 'doc'],
  ['Workbook', 'application/vnd.ms-excel', 'xls'],
  ['Book', 'application/vnd.ms-excel', 'xls'],
  ['PowerPoint Document', 'application/vnd.ms-powerpoint', 'ppt'],
];

/** Binary types file-type reports that we accept as they are. */
const BINARY_TYPES = new Set<string>(
  CHAT_ATTACHMENT.types.filter((type) => type !== 'text/plain' && type !== 'image/svg+xml'),
);

/** Formats file-type recognises that are nevertheless just text (an XML declaration, WebVTT). */
const TEXT_LIKE_TYPES = new Set(['application/xml', 'text/vtt']);

const SVG_ROOT = /^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*|<!DOCTYPE[^>[]*(?:\[[^\]]*\])?\s*>\s*)*<svg[\s>/]/i;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The detected attachment type and its extension, or null when the bytes are not an image or document we take. */
export function detectAttachmentType(upload: Upload): { type: ChatAttachmentType; extension: string } | null {
  if (BINARY_TYPES.has(upload.type)) return { type: upload.type as ChatAttachmentType, extension: upload.extension! };
  // .doc, .xls and .ppt share one container (MS-CFB); its directory names the main stream in UTF-16LE.
  if (upload.type === 'application/x-cfb') {
    const found = CFB_STREAMS.find(([stream]) => upload.bytes.includes(Buffer.from(stream, 'utf16le')));
    return found ? { type: found[1], extension: found[2] } : null;
  }
  if (upload.type !== 'application/octet-stream' && !TEXT_LIKE_TYPES.has(upload.type)) return null;
  const text = decodeText(upload.bytes);
  if (text === null) return null;
  // SVG is kept as SVG (an image the client may preview from a blob), but always served as a download.
  if (SVG_ROOT.test(text.slice(0, 64 * 1024))) return { type: 'image/svg+xml', extension: 'svg' };
  // Anything else that is text (HTML included) is stored and served as plain text, so it can never run.
  return { type: 'text/plain', extension: 'txt' };
}

/** The text of valid UTF-8 without NUL bytes (which mark binary data), else null. */
function decodeText(bytes: Buffer) {
  if (bytes.includes(0)) return null;
  try {
    return strictUtf8.decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return null;
  }
}

/** Storage keys record the uploader, so a message can only attach its sender's own uploads. */
const uploaderPrefix = (uploaderId: string) => `chat/${uploaderId}/`;
export const isOwnUpload = (fileKey: string, uploaderId: string) => fileKey.startsWith(uploaderPrefix(uploaderId));

/** Stores a chat upload within the uploader's quota; a message must use it within the hour (orphan-uploads.ts). */
export async function storeChatUpload({
  db,
  storage,
  uploaderId,
  upload,
}: {
  db: Executor;
  storage: Storage;
  uploaderId: string;
  upload: Upload;
}) {
  if (upload.size > CHAT_ATTACHMENT.maxBytes) throw fieldError('file', chatMessages.tooLarge);
  const detected = detectAttachmentType(upload);
  if (!detected) throw fieldError('file', chatMessages.badFileType);
  await assertStorageLeft(db, uploaderId, upload.size, 'file');
  const fileKey = `${uploaderPrefix(uploaderId)}${randomUUID()}.${detected.extension}`;
  await storage.put(fileKey, upload.bytes, detected.type);
  await recordStoredFiles(db, [{ key: fileKey, ownerId: uploaderId, sizeBytes: upload.size }]);
  return {
    fileKey,
    fileType: detected.type,
    originalFilename: cleanFilename(upload.filename, detected),
    fileSize: upload.size,
  };
}
