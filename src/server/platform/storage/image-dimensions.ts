import { imageSize } from 'image-size';
import { imageSizeFromFile } from 'image-size/fromFile';
import type { ImageDimensions } from '#shared/rules/image-size.ts';

// An image's width and height read from its header by image-size, before any decoder sees the image (the bounds
// are in #shared/rules/image-size.ts).

/** Images that are decoded into pixels; SVG is drawn from its text and has no dimensions to trust. */
export const isRasterImage = (type: string) => type.startsWith('image/') && type !== 'image/svg+xml';

/**
 * The dimensions the header of these bytes states (the largest of several, e.g. in an icon), or null when it
 * states none that can be read. Only the header is parsed: the pixels are never decoded.
 */
export function readImageDimensions(bytes: Uint8Array): ImageDimensions | null {
  try {
    return largestOf(imageSize(bytes));
  } catch {
    return null; // no format image-size knows, or a header cut short
  }
}

/** The same for a file: only its first bytes are read. */
export async function readImageFileDimensions(file: string): Promise<ImageDimensions | null> {
  try {
    return largestOf(await imageSizeFromFile(file));
  } catch {
    return null;
  }
}

function largestOf({ width, height, images }: ReturnType<typeof imageSize>): ImageDimensions | null {
  const all = [{ width, height }, ...(images ?? [])];
  const largest = all.reduce((max, image) => (image.width * image.height > max.width * max.height ? image : max));
  return largest.width > 0 && largest.height > 0 ? { width: largest.width, height: largest.height } : null;
}
