// How large an image may be, in pixels, and what a user is told past each bound. A small file can describe an
// enormous image (a 1 MB PNG of 16,000 × 16,000 pixels needs 1 GB once decoded), so the bounds are on the
// dimensions a file's header gives, never on its size in bytes.

export type ImageDimensions = { width: number; height: number };

/** Every image uploaded (chat, requests, avatars): room for a 48-megapixel phone photo (8,064 × 6,048). */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** What Guru AI reads in a photo (4,000 × 4,000): reading one this large already takes seconds and 300 MB. */
export const MAX_READABLE_PHOTO_PIXELS = 16_000_000;

export const imageSizeMessages = {
  tooLarge:
    'This image is too large: it can have at most 50 megapixels (for example 8,000 × 6,000 pixels). Please send a smaller image.',
  tooLargeToRead:
    'This photo is too large for me to read: it can have at most 16 megapixels (for example 4,000 × 4,000 pixels). Crop it to the question, or send a smaller photo.',
} as const;

export const pixelsOf = ({ width, height }: ImageDimensions) => width * height;
