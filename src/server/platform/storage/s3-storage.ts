import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Storage } from './storage-port.ts';

type S3Config = Extract<Config['storage'], { kind: 's3' }>;

/** A store that does not answer within this long is down for the request that waits on it. */
const CONNECT_TIMEOUT_MS = 3_000;
/** Between two packets of one transfer; a whole upload or download may take longer. */
const IDLE_TIMEOUT_MS = 30_000;
/** The readiness probe asks every few seconds and must answer before the next. */
const CHECK_TIMEOUT_MS = 2_000;

/**
 * Files in an S3 bucket (AWS or any S3-compatible server), under the same keys as on disk, each object with the
 * content type it was stored with. Objects are private: downloads stream through the server (decision 0047).
 */
export function createS3Storage(config: S3Config, log?: FastifyBaseLogger): Storage {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials:
      config.accessKeyId && config.secretAccessKey
        ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
        : undefined, // the SDK's own chain: environment, profile, instance role
    // The SDK's default CRC32 checksums are refused by most S3-compatible servers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 2,
    // The SDK's own warnings (a failed streamed upload is not retried) go to the server's log, not the console.
    logger: log,
    requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, socketTimeout: IDLE_TIMEOUT_MS },
  });
  const Bucket = config.bucket;

  return {
    async put(key, sourceFile, contentType) {
      // A single PUT is atomic: a reader sees the whole object or none. Its length is sent, so it is streamed.
      const { size } = await stat(sourceFile);
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: key,
          Body: createReadStream(sourceFile),
          ContentLength: size,
          ContentType: contentType,
        }),
      );
    },

    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return {
          stream: object.Body as Readable,
          contentType: object.ContentType ?? 'application/octet-stream',
          size: object.ContentLength ?? 0,
        };
      } catch (error) {
        if (error instanceof NoSuchKey) return null;
        throw error;
      }
    },

    async head(key) {
      try {
        const object = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return { contentType: object.ContentType ?? 'application/octet-stream', size: object.ContentLength ?? 0 };
      } catch (error) {
        // A HEAD answer has no body to name the error: a missing object is a plain 404.
        if (error instanceof NotFound) return null;
        throw error;
      }
    },

    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async *list() {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, ContinuationToken }));
        for (const object of page.Contents ?? []) {
          if (object.Key) yield { key: object.Key, size: object.Size ?? 0 };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },

    async check() {
      await client.send(new HeadBucketCommand({ Bucket }), { abortSignal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    },
  };
}
