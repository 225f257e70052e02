import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { freePort } from './server-process.ts';

export type S3Server = {
  /** The S3_* variables that point the app at this server's bucket. */
  env: Record<string, string>;
  /** Stops answering (the store is down); `start()` brings it back on the same port with the same objects. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its objects. */
  close(): Promise<void>;
};

const BUCKET = 'virtual-help-test';

/** An S3-compatible server (s3rver) of the test's own, in this process, on a free loopback port, with one bucket. */
export async function startS3Server(): Promise<S3Server> {
  const directory = await mkdtemp(path.join(tmpdir(), 'vh-s3-'));
  const port = await freePort();
  let server: S3rver | undefined;
  const start = async () => {
    server = new S3rver({
      port,
      address: '127.0.0.1',
      silent: true,
      directory,
      configureBuckets: [{ name: BUCKET }],
    });
    await server.run();
  };
  const stop = async () => {
    await server?.close();
    server = undefined;
  };
  await start();
  return {
    env: {
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    start,
    stop,
    async close() {
      await stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
