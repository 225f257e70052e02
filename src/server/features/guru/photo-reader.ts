// Guru AI offline reads photos with tesseract.js: its WebAssembly engine runs in a worker thread (never on the event
// loop), with the English data of the @tesseract.js-data/eng package, so nothing is downloaded at run time.
import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';

const require = createRequire(import.meta.url);
/** The LSTM model (tesseract's neural engine, integer weights): 3 MB, and what LSTM_ONLY reads. */
const ENGLISH_DATA_DIR = path.join(
  path.dirname(require.resolve('@tesseract.js-data/eng/package.json')),
  '4.0.0_best_int',
);

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
  /** The printed text in the photo, cleaned up (empty when there is none); rejects when it takes longer than allowed. */
  read(image: Buffer): Promise<string>;
  close(): Promise<void>;
};

export class PhotoReadTimeout extends Error {
  constructor(timeoutMs: number) {
    super(`no text recognised within ${timeoutMs} ms`);
    this.name = 'PhotoReadTimeout';
  }
}

/** One recognition worker, started on the first photo and kept; a read past `timeoutMs` ends it (a new one follows). */
export function createPhotoReader({ timeoutMs }: { timeoutMs: number }): PhotoReader {
  let worker: Promise<Worker> | null = null;
  const start = async () => {
    const started = await createWorker('eng', OEM.LSTM_ONLY, {
      langPath: ENGLISH_DATA_DIR,
      gzip: true,
      cacheMethod: 'none', // the data is read from the package, never written next to the server
    });
    // debug_file: tesseract's notes ("Estimating resolution as …") would go to the server's output.
    await started.setParameters({ tessedit_pageseg_mode: PSM.AUTO, debug_file: '/dev/null' });
    return started;
  };
  const stop = async () => {
    const current = worker;
    worker = null;
    await current?.then((w) => w.terminate()).catch(() => undefined);
  };

  return {
    async read(image) {
      worker ??= start();
      const current = worker;
      let timer: NodeJS.Timeout | undefined;
      let hasTimedOut = false;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          hasTimedOut = true;
          reject(new PhotoReadTimeout(timeoutMs));
        }, timeoutMs);
      });
      // A worker still starting when the time is up is ended without being given the photo.
      const recognition = current.then((w) => {
        if (hasTimedOut) throw new PhotoReadTimeout(timeoutMs);
        return w.recognize(image);
      });
      recognition.catch(() => undefined); // it may settle after the race is lost
      try {
        const result = await Promise.race([recognition, timeout]);
        return cleanReadMath(result.data.text);
      } catch (error) {
        // A stuck or failed worker is not reused.
        if (worker === current) await stop();
        throw error;
      } finally {
        clearTimeout(timer);
      }
    },
    close: stop,
  };
}
