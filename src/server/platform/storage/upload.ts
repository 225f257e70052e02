import type { MultipartFile } from '@fastify/multipart';
import { fileTypeFromBuffer } from 'file-type';
import { z } from 'zod';

/** An uploaded file, read into memory, with its type detected from the bytes (the client's claim is ignored). */
export type Upload = {
  filename: string;
  size: number;
  /** The detected MIME type; application/octet-stream when the bytes match no known format. */
  type: string;
  /** The extension that goes with the detected type (no dot); null when unknown. */
  extension: string | null;
  bytes: Buffer;
};

/**
 * @fastify/multipart `onFile` (with `attachFieldsToBody: 'keyValues'`): the file's body value becomes an Upload.
 * An empty file part (a file input left empty) is dropped, as if the field were absent.
 */
export async function readUpload(part: MultipartFile) {
  const chunks: Buffer[] = [];
  for await (const chunk of part.file) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  if (bytes.length === 0) return;
  const detected = await fileTypeFromBuffer(bytes);
  const upload: Upload = {
    filename: part.filename,
    size: bytes.length,
    type: detected?.mime ?? 'application/octet-stream',
    extension: detected?.ext ?? null,
    bytes,
  };
  part.value = upload;
}

/** Whether a body value is a file read by readUpload. */
export const isUpload = (value: unknown): value is Upload =>
  typeof value === 'object' && value !== null && Buffer.isBuffer((value as Upload).bytes);

export const uploadSchema = z.custom<Upload>(isUpload, 'Please choose a file');

/** Limits on a multipart body besides its files: enough for our forms, too little to be a way in. */
export const UPLOAD_PART_LIMITS = {
  fields: 30,
  // The longest text field of a form (a request's description) with room to spare.
  fieldSize: 64 * 1024,
  fieldNameSize: 100,
  headerPairs: 50,
  files: 1,
  fileSize: 1,
  parts: 31,
};

/**
 * Route config for an upload route: a file over `maxBytes` arrives cut at maxBytes + 1 bytes, so the route's own
 * size rule refuses it with its SPEC message instead of a generic 413. More files, fields or parts than allowed end
 * the upload with 413. (`throwFileSizeLimit` is a documented per-request option of @fastify/multipart that its type
 * for route config leaves out.)
 */
export function uploadLimits({ maxBytes, files = 1 }: { maxBytes: number; files?: number }) {
  const options: { limits: typeof UPLOAD_PART_LIMITS; throwFileSizeLimit: boolean } = {
    limits: { ...UPLOAD_PART_LIMITS, fileSize: maxBytes + 1, files, parts: UPLOAD_PART_LIMITS.fields + files },
    throwFileSizeLimit: false,
  };
  return options;
}
