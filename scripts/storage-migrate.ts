// `npm run storage:migrate`: copies the files of $DATA_DIR/uploads into the S3 bucket of S3_BUCKET, reading each
// copy back to check its size and SHA-256. The local files stay until the operator removes them.
import 'dotenv/config';
import { ConfigError, localUploadsDir, parseConfig } from '../src/server/config.ts';
import { copyStoredFiles, CopyMismatchError } from '../src/server/platform/storage/copy-files.ts';
import { createLocalStorage } from '../src/server/platform/storage/local-storage.ts';
import { createS3Storage } from '../src/server/platform/storage/s3-storage.ts';

try {
  const config = parseConfig();
  if (config.storage.kind !== 's3') throw new ConfigError(['S3_BUCKET: must name the bucket to copy the files into']);
  const from = localUploadsDir(config.dataDir);
  const { files, bytes } = await copyStoredFiles({
    from: createLocalStorage(from),
    to: createS3Storage(config.storage),
    workDir: config.dataDir,
  });
  console.log(
    `Copied ${files} files (${bytes} bytes) from ${from} to the bucket ${config.storage.bucket}; each copy was read ` +
      'back and matches. Start the servers with S3_BUCKET set, then remove the local folder.',
  );
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof CopyMismatchError ? error.message : error);
  process.exitCode = 1;
}
