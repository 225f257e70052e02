// Guru AI offline reads photos with tesseract.js, in a process of its own (photo-reader-process.ts): its
// WebAssembly memory is capped there, and handed back whenever that process ends. Each photo's dimensions are read
// from its header first, so an image too large (or with no header to read) never reaches the decoder.
import type { ChildProcess } from 'node:child_process';
import { MAX_READABLE_PHOTO_PIXELS, pixelsOf, type ImageDimensions } from '#shared/rules/image-size.ts';
import { readImageDimensions } from '../../platform/storage/image-dimensions.ts';
import { forkChildProcess } from '../../system/worker-threads.ts';
import type { PhotoReaderMessage, PhotoReadJob } from './photo-reader-process.ts';

/** The reader's WebAssembly memory, at most: 1 GiB in 64 KiB pages, three times what the largest photo takes. */
const WASM_MEMORY_PAGES = 16_384;
/** Starting the reader (a process, and tesseract loading its model) is not part of a read's time. */
const START_TIMEOUT_MS = 60_000;
/** After a photo this large the reader is ended (its memory never shrinks) and a fresh one reads the next. */
const RECYCLE_AFTER_PIXELS = 4_000_000;

/**
 * Undoes what the English model does to printed algebra: capital X for the variable x, "Xx" for one x, and an
 * exponent's caret read as ™, ~, " or \\ before its digit.
 */
export function cleanReadMath(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      line
        .replace(/([A-Z])(?=[a-z])/g, (upper: string, _letter: string, offset: number) =>
          line[offset + 1] === upper.toLowerCase() ? '' : upper,
        )
        .replace(/(?<=[A-Za-z)])\s*[™~"\\^]+\s*(?=\d)/g, '^')
        .replace(/(?<![A-Za-z])[A-Z](?![A-Za-z])/g, (letter) => letter.toLowerCase())
        .trim(),
    )
    .filter(Boolean)
    .join('\n');
}

export type PhotoReader = {
  /**
   * The printed text in the photo, cleaned up (empty when there is none). Rejects with PhotoTooLarge past the
   * bound, PhotoReadTimeout when reading takes longer than allowed, and any other error when it cannot be read.
   */
  read(image: Buffer): Promise<string>;
  close(): Promise<void>;
};

export class PhotoReadTimeout extends Error {
  constructor(timeoutMs: number) {
    super(`no text recognised within ${timeoutMs} ms`);
    this.name = 'PhotoReadTimeout';
  }
}

export class PhotoTooLarge extends Error {
  constructor({ width, height }: ImageDimensions) {
    super(`a photo of ${width} × ${height} pixels is not read`);
    this.name = 'PhotoTooLarge';
  }
}

/**
 * The first message from `reader` that `pick` takes; rejects when the process ends or `timeoutMs` passes first.
 */
function nextMessage<T>(
  reader: ChildProcess,
  pick: (message: PhotoReaderMessage) => T | undefined,
  { timeoutMs, timeoutError }: { timeoutMs: number; timeoutError: () => Error },
) {
  return new Promise<T>((resolve, reject) => {
    const onMessage = (message: PhotoReaderMessage) => {
      const picked = pick(message);
      if (picked !== undefined) settle(() => resolve(picked));
    };
    const onEnd = () => settle(() => reject(new Error('the photo reader ended')));
    const timer = setTimeout(() => settle(() => reject(timeoutError())), timeoutMs);
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      reader.off('message', onMessage).off('exit', onEnd).off('error', onEnd);
      outcome();
    };
    reader.on('message', onMessage).on('exit', onEnd).on('error', onEnd);
  });
}

/** Photos are read one at a time by one reader process, started on the first photo and kept until it must go. */
export function createPhotoReader({ timeoutMs }: { timeoutMs: number }): PhotoReader {
  let reader: ChildProcess | null = null;
  const readiness = new WeakMap<ChildProcess, Promise<unknown>>();
  let nextId = 1;
  let queue: Promise<unknown> = Promise.resolve();

  /** Ends a reader process; resolves once it has gone, and its memory with it. */
  const stop = async (current: ChildProcess | null) => {
    if (reader === current) reader = null;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise((resolve) => current.once('exit', resolve));
    current.kill('SIGKILL');
    await exited;
  };

  /** A new reader process; its readiness rejects when it ends or takes too long to start. */
  const start = () => {
    const started = forkChildProcess({
      source: new URL('./photo-reader-process.ts', import.meta.url),
      bundled: new URL('./guru-photo-reader.js', import.meta.url),
      execArgv: [`--wasm-max-mem-pages=${WASM_MEMORY_PAGES}`],
    });
    // A reader that ends between photos is replaced at the next one; failing while reading, it fails that read.
    started.on('error', () => undefined);
    started.once('exit', () => {
      if (reader === started) reader = null;
    });
    const ready = nextMessage(started, (message) => ('ready' in message ? true : undefined), {
      timeoutMs: START_TIMEOUT_MS,
      timeoutError: () => new Error('the photo reader did not start in time'),
    });
    readiness.set(started, ready);
    return started;
  };

  const readOne = async (image: Buffer) => {
    const current = (reader ??= start());
    const id = nextId++;
    try {
      await readiness.get(current);
      const reply = nextMessage(current, (message) => ('id' in message && message.id === id ? message : undefined), {
        timeoutMs,
        timeoutError: () => new PhotoReadTimeout(timeoutMs),
      });
      current.send({ id, image } satisfies PhotoReadJob);
      const result = await reply;
      if ('failure' in result) throw new Error(`the photo could not be read: ${result.failure}`);
      return result.text;
    } catch (error) {
      await stop(current); // a reader that failed or took too long is not reused
      throw error;
    }
  };

  return {
    read(image) {
      const dimensions = readImageDimensions(image);
      if (!dimensions) return Promise.reject(new Error('the photo has no image header that can be read'));
      if (pixelsOf(dimensions) > MAX_READABLE_PHOTO_PIXELS) return Promise.reject(new PhotoTooLarge(dimensions));
      const read = queue.then(async () => {
        const text = await readOne(image);
        if (pixelsOf(dimensions) > RECYCLE_AFTER_PIXELS) await stop(reader);
        return cleanReadMath(text);
      });
      queue = read.catch(() => undefined);
      return read;
    },
    close: () => stop(reader),
  };
}
