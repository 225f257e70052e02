import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { contentDisposition } from './content-disposition.ts';

/** A file to answer with: its bytes and the type it was stored under. */
export type FileToSend = { stream: Readable; contentType: string; size: number };

/**
 * Answers with a stored file under its detected type, never sniffed into another. `inline` files show in the page
 * (our raster images), the rest download under their name; either way the file is sandboxed, so even a browser that
 * rendered it would run nothing and reach nothing of ours.
 */
export function sendStoredFile(
  reply: FastifyReply,
  file: FileToSend,
  {
    disposition,
    filename,
    cacheControl,
  }: { disposition: 'inline' | 'attachment'; filename?: string; cacheControl: string },
) {
  return reply
    .type(file.contentType === 'text/plain' ? 'text/plain; charset=utf-8' : file.contentType)
    .header('content-length', file.size)
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', filename === undefined ? disposition : contentDisposition(disposition, filename))
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', cacheControl)
    .send(file.stream);
}
