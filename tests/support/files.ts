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
 * A white greyscale PNG of these dimensions, compressed as fast as it goes (so as large as a real image bomb: a
 * 16,000 × 16,000 one is 1.1 MB). With `pixels: false` only its header is there (the image data left out), which is
 * all a dimension check reads: an image bomb in a few dozen bytes.
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
    parts.push(pngChunk('IDAT', deflateSync(rows, { level: 1 })));
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

/** A minimal PDF's bytes; `truncated` cuts it off inside its first object. */
export const pdfBytes = ({ truncated = false } = {}) => {
  const whole =
    '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n';
  return Buffer.from(truncated ? whole.slice(0, 20) : whole, 'latin1');
};

/** A JPEG that is only its start, a JFIF segment and a frame header stating 65,535 × 65,535 pixels. */
const hugeJpeg = () => {
  const jfif = Buffer.concat([
    Buffer.from([0xff, 0xe0, 0x00, 0x10]),
    Buffer.from('JFIF\0', 'latin1'),
    Buffer.from([1, 1, 0, 0, 1, 0, 1, 0, 0]),
  ]);
  const frame = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0xff, 0xff, 0xff, 0xff, 0x03, ...Array(9).fill(0x11)]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), jfif, frame, Buffer.from([0xff, 0xd9])]);
};

/** A GIF header stating 65,535 × 65,535 pixels, with nothing after it. */
const hugeGif = () => Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0])]);

/**
 * Files meant to break whatever reads an upload: cut short, random, named and typed as what they are not, both
 * at once (a polyglot), or stating more pixels than any memory holds.
 */
export function hostileFiles() {
  return [
    { name: 'truncated PNG', bytes: TRUNCATED_PNG, filename: 'photo.png', type: 'image/png' },
    {
      name: 'random bytes as a PNG',
      bytes: Buffer.from(Array.from({ length: 512 }, (_, n) => (n * 151) % 256)),
      filename: 'photo.png',
      type: 'image/png',
    },
    { name: 'PNG named .pdf', bytes: TINY_PNG, filename: 'worksheet.pdf', type: 'application/pdf' },
    { name: 'PDF named .png', bytes: pdfBytes(), filename: 'photo.png', type: 'image/png' },
    { name: 'truncated PDF', bytes: pdfBytes({ truncated: true }), filename: 'worksheet.pdf', type: 'application/pdf' },
    {
      name: 'PNG and PDF at once',
      bytes: Buffer.concat([TINY_PNG, pdfBytes()]),
      filename: 'both.pdf',
      type: 'application/pdf',
    },
    {
      name: 'PNG header of 16,000 × 16,000',
      bytes: blankPng({ width: 16_000, height: 16_000, pixels: false }),
      filename: 'bomb.png',
      type: 'image/png',
    },
    {
      name: 'PNG header of 65,535 × 65,535 named .jpg',
      bytes: blankPng({ width: 65_535, height: 65_535, pixels: false }),
      filename: 'bomb.jpg',
      type: 'image/jpeg',
    },
    { name: 'JPEG header of 65,535 × 65,535', bytes: hugeJpeg(), filename: 'bomb.jpg', type: 'image/jpeg' },
    { name: 'GIF header of 65,535 × 65,535', bytes: hugeGif(), filename: 'bomb.gif', type: 'image/gif' },
    { name: 'empty file', bytes: Buffer.alloc(0), filename: 'empty.png', type: 'image/png' },
  ];
}
