import { randomUUID } from 'node:crypto';
import { CHAT_ATTACHMENT, type ChatAttachmentType } from '#shared/constants.ts';
import { chatMessages } from '#shared/schemas/chat.ts';
import { fieldError } from '../../http/errors.ts';
import type { Executor } from '../../db/client.ts';
import { claimStorage, releaseStorage } from '../../platform/storage/quota.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { cleanFilename } from '../../platform/storage/filenames.ts';
import type { Upload } from '../../http/upload.ts';
import { holdSession } from '../../platform/sessions/hold-session.ts';

// Chat attachments (SPEC.md §5 "Uploads in chat"): the type comes from the bytes, never from the name or the
// client's claim.

/** The detected attachment type and its extension, or null when the bytes are not an image or document we take. */
function detectAttachmentType({ type, extension }: Upload): { type: ChatAttachmentType; extension: string } | null {
  const isTaken = (CHAT_ATTACHMENT.types as readonly string[]).includes(type);
  return isTaken && extension ? { type: type as ChatAttachmentType, extension } : null;
}

/** Storage keys record the uploader, so a message can only attach its sender's own uploads. */
const uploaderPrefix = (uploaderId: string) => `chat/${uploaderId}/`;
export const isOwnUpload = (fileKey: string, uploaderId: string) => fileKey.startsWith(uploaderPrefix(uploaderId));

/**
 * Stores a chat upload within the uploader's quota; a message must use it within the hour (orphan-uploads.ts). The
 * quota is claimed only while the session that sent it lasts: a file still arriving when the account was locked is
 * refused, not kept.
 */
export async function storeChatUpload({
  db,
  storage,
  uploaderId,
  sessionId,
  upload,
}: {
  db: Executor;
  storage: Storage;
  uploaderId: string;
  sessionId: string;
  upload: Upload;
}) {
  if (upload.size > CHAT_ATTACHMENT.maxBytes) throw fieldError('file', chatMessages.tooLarge);
  const detected = detectAttachmentType(upload);
  if (!detected) throw fieldError('file', chatMessages.badFileType);
  const fileKey = `${uploaderPrefix(uploaderId)}${randomUUID()}.${detected.extension}`;
  await db.transaction(async (tx) => {
    await holdSession({ db: tx, userId: uploaderId, sessionId });
    await claimStorage(tx, uploaderId, [{ key: fileKey, sizeBytes: upload.size }], 'file');
  });
  try {
    await storage.put(fileKey, upload.path, detected.type);
  } catch (error) {
    await releaseStorage(db, [fileKey]);
    throw error;
  }
  return {
    fileKey,
    fileType: detected.type,
    originalFilename: cleanFilename(upload.filename, detected),
    fileSize: upload.size,
  };
}
