import { z } from 'zod';
import { imageSizeMessages, MAX_IMAGE_PIXELS, pixelsOf, type ImageDimensions } from '#shared/rules/image-size.ts';

/**
 * An uploaded file, received into a temporary file (platform/storage/incoming-files.ts), with its type detected from
 * the bytes (the client's claim is ignored). It belongs to the request: http/ knows what a route received, storage
 * where it is kept.
 */
export type Upload = {
  filename: string;
  size: number;
  /** The detected MIME type (platform/storage/document-type.ts); application/octet-stream for an unknown format. */
  type: string;
  /** The extension that goes with the detected type (no dot); null when unknown. */
  extension: string | null;
  /** A raster image's width and height from its header (platform/storage/image-dimensions.ts); else null. */
  dimensions: ImageDimensions | null;
  /** The temporary file holding the bytes until the request ends: read it as a stream, never whole. */
  path: string;
};

/** Uploads made from a request's file parts: a JSON body that merely looks like one (naming a server file) is not. */
const receivedUploads = new WeakSet<Upload>();

export function receivedUpload(upload: Upload) {
  receivedUploads.add(upload);
  return upload;
}

/** Whether a body value is a file received from a multipart part. */
export const isUpload = (value: unknown): value is Upload =>
  typeof value === 'object' && value !== null && receivedUploads.has(value as Upload);

// An image whose header states more pixels than any image may have is refused (one that states none is left to the
// feature: nothing decodes it without reading its header first).
export const uploadSchema = z
  .custom<Upload>(isUpload, 'Please choose a file')
  .refine(
    (upload) => upload.dimensions === null || pixelsOf(upload.dimensions) <= MAX_IMAGE_PIXELS,
    imageSizeMessages.tooLarge,
  );

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
