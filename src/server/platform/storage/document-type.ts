import type { Upload } from './upload.ts';

// file-type recognises binary formats by their signature. Three kinds it cannot finish are finished here, from the
// content, never from the name or the client's claim: plain text and SVG (no signature), and the old Word, Excel and
// PowerPoint files (one container format, MS-CFB, for all three).

/** The container's directory names its main stream in UTF-16LE. */
const CFB_STREAMS: Array<[stream: string, type: string, extension: string]> = [
  ['WordDocument', 'application/msword', 'doc'],
  ['Workbook', 'application/vnd.ms-excel', 'xls'],
  ['Book', 'application/vnd.ms-excel', 'xls'],
  ['PowerPoint Document', 'application/vnd.ms-powerpoint', 'ppt'],
];

/** Formats file-type recognises that are nevertheless just text (an XML declaration, WebVTT). */
const TEXT_LIKE_TYPES = new Set(['application/octet-stream', 'application/xml', 'text/vtt']);

const SVG_ROOT = /^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*|<!DOCTYPE[^>[]*(?:\[[^\]]*\])?\s*>\s*)*<svg[\s>/]/i;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * What the bytes of an upload are: its detected type, or for the cases above the finished one. Text of any kind
 * (HTML included) is plain text, so it is stored and served as text and can never run; a feature then checks the
 * type against its own list.
 */
export function documentType(upload: Upload): { type: string; extension: string | null } {
  if (upload.type === 'application/x-cfb') {
    const found = CFB_STREAMS.find(([stream]) => upload.bytes.includes(Buffer.from(stream, 'utf16le')));
    return found ? { type: found[1], extension: found[2] } : { type: upload.type, extension: upload.extension };
  }
  if (!TEXT_LIKE_TYPES.has(upload.type)) return { type: upload.type, extension: upload.extension };
  const text = decodeText(upload.bytes);
  if (text === null) return { type: 'application/octet-stream', extension: null };
  if (SVG_ROOT.test(text.slice(0, 64 * 1024))) return { type: 'image/svg+xml', extension: 'svg' };
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
