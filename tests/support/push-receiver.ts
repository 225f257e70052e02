import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, randomUUID, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A push service on loopback for the tests: it hands out subscriptions with keys of its own, and for each push it
// receives checks the VAPID signature (RFC 8292) and decrypts the body as the browser would (aes128gcm, RFC 8188 and
// RFC 8291), so that a test reads exactly what a phone would show.

export type ReceivedPush = {
  subscriptionId: string;
  payload: unknown;
  /** The VAPID token's claims, once its ES256 signature checked out against the key sent beside it. */
  claims: { aud: string; exp: number; sub: string };
  vapidPublicKey: string;
  ttl: string | undefined;
};

type Subscription = { id: string; ecdh: ReturnType<typeof createECDH>; authSecret: Buffer; status: number };

const fromBase64Url = (text: string) => Buffer.from(text, 'base64url');

/** Checks `vapid t=<jwt>, k=<key>` and answers the token's claims and the key; throws on a bad signature. */
function checkVapid(authorization: string | undefined) {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`not a VAPID authorization: ${authorization}`);
  const [, token, key] = match as unknown as [string, string, string];
  const [header, body, signature] = token.split('.') as [string, string, string];
  const point = fromBase64Url(key);
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const isSigned = verify(
    'sha256',
    Buffer.from(`${header}.${body}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    fromBase64Url(signature),
  );
  if (!isSigned) throw new Error('the VAPID token is not signed by its key');
  if ((JSON.parse(fromBase64Url(header).toString()) as { alg: string }).alg !== 'ES256') throw new Error('not ES256');
  return { claims: JSON.parse(fromBase64Url(body).toString()) as ReceivedPush['claims'], vapidPublicKey: key };
}

/** Decrypts one aes128gcm body for the subscription (a push is a single record). */
function decrypt(subscription: Subscription, body: Buffer) {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const serverPublicKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const userAgentPublicKey = subscription.ecdh.getPublicKey();
  const sharedSecret = subscription.ecdh.computeSecret(serverPublicKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), userAgentPublicKey, serverPublicKey]);
  const ikm = Buffer.from(hkdfSync('sha256', sharedSecret, subscription.authSecret, keyInfo, 32));
  const contentKey = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', contentKey, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 2, then any zeros of padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return JSON.parse(padded.subarray(0, end).toString('utf8')) as unknown;
}

export async function startPushReceiver() {
  const subscriptions = new Map<string, Subscription>();
  const received: ReceivedPush[] = [];
  const failures: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const id = /^\/push\/([\w-]+)$/.exec(request.url ?? '')?.[1];
      const subscription = id ? subscriptions.get(id) : undefined;
      if (!subscription) return response.writeHead(404).end();
      try {
        if (request.headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
        const vapid = checkVapid(request.headers.authorization);
        const payload = decrypt(subscription, Buffer.concat(chunks));
        received.push({ subscriptionId: subscription.id, payload, ...vapid, ttl: request.headers.ttl as string });
        response.writeHead(subscription.status).end();
      } catch (error) {
        failures.push(String(error));
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    /** Pushes that did not decrypt or whose VAPID token did not check out. */
    failures,
    /** A new browser subscription, as PushSubscription.toJSON() gives it; `status` is what its pushes are answered. */
    subscribe({ status = 201 } = {}) {
      const id: string = randomUUID();
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const subscription = { id, ecdh, authSecret: randomBytes(16), status };
      subscriptions.set(id, subscription);
      return {
        id,
        json: {
          endpoint: `${origin}/push/${id}`,
          keys: {
            p256dh: ecdh.getPublicKey().toString('base64url'),
            auth: subscription.authSecret.toString('base64url'),
          },
        },
        /** Changes what its pushes are answered from now on (410: the browser unsubscribed). */
        answerWith(next: number) {
          subscription.status = next;
        },
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
