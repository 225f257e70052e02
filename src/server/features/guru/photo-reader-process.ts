// Guru AI's photo reader in a process of its own (photo-reader.ts starts it): tesseract.js reads the printed text
// with the English data of the @tesseract.js-data/eng package, so nothing is downloaded at run time. Its
// WebAssembly memory grows with the largest image read and never shrinks, and a broken image can end it: here
// either costs only this process, which the server ends and starts again.
import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM, PSM } from 'tesseract.js';

export type PhotoReadJob = { id: number; image: Uint8Array };
/** `ready` once the engine has loaded, then one result for each job. */
export type PhotoReaderMessage = { ready: true } | { id: number; text: string } | { id: number; failure: string };

const require = createRequire(import.meta.url);
/** The LSTM model (tesseract's neural engine, integer weights): 3 MB, and what LSTM_ONLY reads. */
const ENGLISH_DATA_DIR = path.join(
  path.dirname(require.resolve('@tesseract.js-data/eng/package.json')),
  '4.0.0_best_int',
);

const recognition = createWorker('eng', OEM.LSTM_ONLY, {
  langPath: ENGLISH_DATA_DIR,
  gzip: true,
  cacheMethod: 'none', // the data is read from the package, never written next to the server
  // Without a handler tesseract.js throws a failed job (an unreadable image) out of its message listener, which
  // ends the process; the failure reaches `recognize`'s caller as a rejection either way.
  errorHandler: () => undefined,
}).then(async (worker) => {
  // debug_file: tesseract's notes ("Estimating resolution as …") would go to the server's output.
  await worker.setParameters({ tessedit_pageseg_mode: PSM.AUTO, debug_file: '/dev/null' });
  return worker;
});

const reply = (message: PhotoReaderMessage) => process.send?.(message);
recognition.then(
  () => reply({ ready: true }),
  () => process.exit(1),
);

process.on('message', ({ id, image }: PhotoReadJob) => {
  recognition
    .then((worker) => worker.recognize(Buffer.from(image)))
    .then(
      (result) => reply({ id, text: result.data.text }),
      (error: unknown) => reply({ id, failure: String(error) }),
    );
});
// The server ended or let go of this reader: nothing is left to do.
process.on('disconnect', () => process.exit(0));
