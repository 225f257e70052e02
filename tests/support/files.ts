import { crc32, deflateSync } from 'node:zlib';

// Small files for upload tests.

/** A valid 1×1 PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** The first 67 bytes of a PNG: a readable header, then the image data cut off (what a failed upload leaves). */
export const TRUNCATED_PNG = Buffer.concat([TINY_PNG.subarray(0, 33), Buffer.alloc(34)]);

const pngChunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const framed = Buffer.alloc(body.length + 8);
  framed.writeUInt32BE(data.length, 0);
  body.copy(framed, 4);
  framed.writeUInt32BE(crc32(body), body.length + 4);
  return framed;
};

/**
 * A white greyscale PNG of these dimensions. With `pixels: false` only its header is there (the image data left
 * out), which is all a dimension check reads: an image bomb in a few dozen bytes.
 */
export function blankPng({ width, height, pixels = true }: { width: number; height: number; pixels?: boolean }) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample; colour type 0 (greyscale) and the rest stay 0
  const parts = [TINY_PNG.subarray(0, 8), pngChunk('IHDR', header)];
  if (pixels) {
    // Each row is its filter byte (0, none) and then white samples.
    const rows = Buffer.alloc(height * (width + 1), 255);
    for (let row = 0; row < height; row++) rows[row * (width + 1)] = 0;
    parts.push(pngChunk('IDAT', deflateSync(rows)));
  }
  parts.push(pngChunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

/** A PNG signature followed by padding, `size` bytes long: detected as PNG, sized as asked. */
export const pngOfSize = (size: number) => Buffer.concat([TINY_PNG, Buffer.alloc(Math.max(0, size - TINY_PNG.length))]);

/** Plain text dressed up as a PNG by its name and claimed type. */
export const FORGED_PNG = {
  bytes: Buffer.from('this is not an image, just text\n'),
  filename: 'photo.png',
  type: 'image/png',
};

/** A multipart form: repeated fields for arrays, a file part for `file`. */
export function formData(
  fields: Record<string, string | boolean | readonly string[]>,
  file?: { field: string; bytes: Uint8Array; filename: string; type: string },
) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) form.append(key, String(item));
  }
  // Copied into a plain ArrayBuffer, which is what Blob takes.
  if (file) form.append(file.field, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.filename);
  return form;
}
