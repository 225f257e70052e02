import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fileTypeFromFile } from 'file-type';
import { isRasterImage, readImageFileDimensions } from './image-dimensions.ts';
import { UPLOADS_IN_FLIGHT } from '#shared/constants.ts';
import { isMultipart } from '../../http/content-types.ts';
import { AppError } from '../../http/errors.ts';
import { preparePrivateDir, PRIVATE_FILE_MODE } from '../../system/data-dir.ts';
import { documentType } from './document-type.ts';
import { receivedUpload, UPLOAD_PART_LIMITS } from '../../http/upload.ts';

// Uploaded files go to temporary files in `dir` as they arrive, never into memory: a request's files are removed
// when it ends, answered or cut off. Upload requests in flight are counted per user on this process.

/** A temporary file no request has held for this long was left by a process that ended mid-upload. */
const LEFTOVER_AGE_MS = 24 * 60 * 60 * 1000;

/** The temporary files of one upload request, and whether it has ended (its files are then removed at once). */
type Arrival = { files: string[]; ended: boolean; release: () => void };

/**
 * Registers @fastify/multipart for the routes with `multipartOptions` (see content-types.ts): each file part becomes
 * an Upload in the body, its type detected from its bytes, within the route's limits (uploadLimits).
 */
export async function registerUploads(app: FastifyInstance, { dir }: { dir: string }) {
  preparePrivateDir(dir);
  await removeLeftovers(dir);
  const arrivals = new WeakMap<FastifyRequest, Arrival>();
  const inFlight = new Map<string, number>();

  const end = async (request: FastifyRequest) => {
    const arrival = arrivals.get(request);
    if (!arrival || arrival.ended) return;
    arrival.ended = true;
    arrival.release();
    await Promise.all(arrival.files.map((file) => rm(file, { force: true })));
  };

  app.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.config.multipartOptions || !isMultipart(request.headers['content-type'])) return;
    const sender = (await request.getSessionUser())?.id ?? `address:${request.ip}`;
    const sending = inFlight.get(sender) ?? 0;
    if (sending >= UPLOADS_IN_FLIGHT.max) throw new AppError('RATE_LIMITED', { message: UPLOADS_IN_FLIGHT.message });
    inFlight.set(sender, sending + 1);
    const release = () => {
      const left = (inFlight.get(sender) ?? 1) - 1;
      if (left > 0) inFlight.set(sender, left);
      else inFlight.delete(sender);
    };
    arrivals.set(request, { files: [], ended: false, release });
    // A client that leaves before the answer gets no answer; 'close' comes for every request.
    reply.raw.once('close', () => void end(request));
  });
  // Before the answer goes out, so a client that has it finds the upload's resources free.
  app.addHook('onSend', async (request) => {
    await end(request);
  });

  async function readUpload(this: FastifyRequest, part: MultipartFile) {
    const arrival = arrivals.get(this);
    if (!arrival) throw new AppError('UNREADABLE_UPLOAD');
    const file = path.join(dir, randomUUID());
    arrival.files.push(file);
    await pipeline(part.file, createWriteStream(file, { mode: PRIVATE_FILE_MODE }));
    // The request may have ended while the file was still being written.
    if (arrival.ended) {
      await rm(file, { force: true });
      throw new AppError('UNREADABLE_UPLOAD');
    }
    const { size } = await stat(file);
    // An empty file part (a file input left empty) is dropped, as if the field were absent.
    if (size === 0) return;
    const detected = await fileTypeFromFile(file);
    const { type, extension } = await documentType(file, {
      type: detected?.mime ?? 'application/octet-stream',
      extension: detected?.ext ?? null,
    });
    const dimensions = isRasterImage(type) ? await readImageFileDimensions(file) : null;
    part.value = receivedUpload({ filename: part.filename, size, type, extension, dimensions, path: file });
  }

  await app.register(multipart, { attachFieldsToBody: 'keyValues', onFile: readUpload, limits: UPLOAD_PART_LIMITS });
}

async function removeLeftovers(dir: string) {
  const before = Date.now() - LEFTOVER_AGE_MS;
  for (const name of await readdir(dir)) {
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null);
    if (info && info.mtimeMs < before) await rm(file, { force: true });
  }
}
