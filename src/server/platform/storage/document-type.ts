import { createReadStream } from 'node:fs';

// file-type recognises binary formats by their signature. Three kinds it cannot finish are finished here, from the
// content, never from the name or the client's claim: plain text and SVG (no signature), and the old Word, Excel and
// PowerPoint files (one container format, MS-CFB, for all three). The file is read a chunk at a time, never whole.

/** The container's directory names its main stream in UTF-16LE. */
const CFB_STREAMS: Array<[stream: Buffer, type: string, extension: string]> = [
  [Buffer.from('WordDocument', 'utf16le'), 'application/msword', 'doc'],
  [Buffer.from('Workbook', 'utf16le'), 'application/vnd.ms-excel', 'xls'],
  [Buffer.from('Book', 'utf16le'), 'application/vnd.ms-excel', 'xls'],
  [Buffer.from('PowerPoint Document', 'utf16le'), 'application/vnd.ms-powerpoint', 'ppt'],
];
const LONGEST_CFB_STREAM = Math.max(...CFB_STREAMS.map(([stream]) => stream.length));

/** Formats file-type recognises that are nevertheless just text (an XML declaration, WebVTT). */
const TEXT_LIKE_TYPES = new Set(['application/octet-stream', 'application/xml', 'text/vtt']);

const SVG_ROOT = /^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*|<!DOCTYPE[^>[]*(?:\[[^\]]*\])?\s*>\s*)*<svg[\s>/]/i;
/** How much of a text the SVG test reads. */
const SVG_HEAD_CHARS = 64 * 1024;

type DetectedType = { type: string; extension: string | null };

/**
 * What the bytes of the file at `file` are: file-type's `detected` type, or for the cases above the finished one.
 * Text of any kind (HTML included) is plain text, so it is stored and served as text and can never run; a feature
 * then checks the type against its own list.
 */
export async function documentType(file: string, detected: DetectedType): Promise<DetectedType> {
  if (detected.type === 'application/x-cfb') {
    const found = await findCfbStream(file);
    return found ? { type: found[1], extension: found[2] } : detected;
  }
  if (!TEXT_LIKE_TYPES.has(detected.type)) return detected;
  const head = await textHead(file);
  if (head === null) return { type: 'application/octet-stream', extension: null };
  if (SVG_ROOT.test(head)) return { type: 'image/svg+xml', extension: 'svg' };
  return { type: 'text/plain', extension: 'txt' };
}

/** The first of CFB_STREAMS named in the file; a name cut by a chunk boundary is found in the carried tail. */
async function findCfbStream(file: string) {
  let tail = Buffer.alloc(0);
  for await (const chunk of createReadStream(file)) {
    const window = Buffer.concat([tail, chunk as Buffer]);
    const found = CFB_STREAMS.find(([stream]) => window.includes(stream));
    if (found) return found;
    tail = window.subarray(Math.max(0, window.length - LONGEST_CFB_STREAM + 1));
  }
  return null;
}

/**
 * The start of the file's text when the whole file is valid UTF-8 without NUL bytes (which mark binary data), else
 * null.
 */
async function textHead(file: string) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let head = '';
  try {
    for await (const chunk of createReadStream(file)) {
      if ((chunk as Buffer).includes(0)) return null;
      const text = decoder.decode(chunk as Buffer, { stream: true });
      if (head.length < SVG_HEAD_CHARS) head += text.slice(0, SVG_HEAD_CHARS - head.length);
    }
    decoder.decode();
  } catch {
    return null;
  }
  return head.replace(/^\uFEFF/, '');
}
