// Small files for upload tests.

/** A valid 1×1 PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

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
