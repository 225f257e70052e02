// Several nodes behind nginx, and files in a bucket, each against the single-machine set-up in the same run, on the
// PostgreSQL server of BENCH_DATABASE_URL (a fresh database per cluster). The nodes run from source, as in the
// cluster test. On a machine of two cores, two nodes share those cores with nginx, PostgreSQL and the load
// generator: the ratio shows what the proxy and the fan-out between nodes cost, not how far the app scales.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { io } from 'socket.io-client';
import { formData, pngOfSize } from '../tests/support/files.ts';
import { missingForCluster, startClusterBehindNginx } from '../tests/support/nginx-cluster.ts';
import type { TestSocket } from '../tests/support/socket-client.ts';

const ROUNDS = 3;
const CLIENTS = 16;
const LOAD_MS = 5_000;
const CHAT_MESSAGES = 40;
const CHAT_SENDERS = 16;
/** Each sender's messages in a capacity run: below the ceiling of 60 a minute per user. */
const MESSAGES_PER_SENDER = 50;
const DOWNLOADS = 50;
const FILE_BYTES = 1024 * 1024;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round = (value: number, digits = 0) => Number(value.toFixed(digits));

/** What stops this bench here, or undefined. */
export function missingForScaleOut() {
  if (!process.env.BENCH_DATABASE_URL) return 'needs BENCH_DATABASE_URL=postgres://… (a PostgreSQL server)';
  return missingForCluster('postgres');
}

type Nodes = Awaited<ReturnType<typeof startClusterBehindNginx>>;

/** Requests per second of CLIENTS signed-in users each reading their room list through nginx without pause. */
async function roomListsPerSecond(nodes: Nodes, cookies: string[]) {
  let answered = 0;
  const until = performance.now() + LOAD_MS;
  const started = performance.now();
  await Promise.all(
    cookies.map(async (cookie) => {
      while (performance.now() < until) {
        const answer = await nodes.through('/api/chat/rooms', cookie);
        await answer.arrayBuffer();
        if (answer.ok) answered += 1;
      }
    }),
  );
  return answered / ((performance.now() - started) / 1000);
}

/** Send-to-delivery time of chat messages sent through nginx (round robin) to a socket through nginx, one at a time. */
async function chatLatencies(nodes: Nodes) {
  const [sender, receiver] = [await nodes.cluster.signedIn(), await nodes.cluster.signedIn()];
  const socket: TestSocket = io(nodes.proxy.url, {
    transports: ['websocket'],
    reconnection: false,
    extraHeaders: { cookie: receiver.cookie },
  });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const latencies: number[] = [];
  try {
    for (let n = 0; n < CHAT_MESSAGES; n++) {
      const started = performance.now();
      const arrived = new Promise<void>((resolve) => socket.once('message:new', () => resolve()));
      const sent = await nodes.through('/api/chat/messages', sender.cookie, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: randomUUID(), receiverId: receiver.id, content: `bench ${n}` }),
      });
      if (sent.status !== 201) throw new Error(`Sending answered ${sent.status}: ${await sent.text()}`);
      await arrived;
      latencies.push(performance.now() - started);
    }
  } finally {
    socket.close();
  }
  return latencies;
}

/**
 * Chat messages a second stored and delivered: CHAT_SENDERS new users through nginx, each keeping one message in
 * flight, to one receiver's socket through nginx; until every message arrived.
 */
async function chatMessagesPerSecond(nodes: Nodes) {
  const receiver = await nodes.cluster.signedIn();
  const senders = await Promise.all(Array.from({ length: CHAT_SENDERS }, () => nodes.cluster.signedIn()));
  const socket: TestSocket = io(nodes.proxy.url, {
    transports: ['websocket'],
    reconnection: false,
    extraHeaders: { cookie: receiver.cookie },
  });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const total = CHAT_SENDERS * MESSAGES_PER_SENDER;
  let delivered = 0;
  const allDelivered = new Promise<void>((resolve) =>
    socket.on('message:new', () => {
      if (++delivered === total) resolve();
    }),
  );
  try {
    const started = performance.now();
    await Promise.all(
      senders.map(async (sender) => {
        for (let n = 0; n < MESSAGES_PER_SENDER; n++) {
          const sent = await nodes.through('/api/chat/messages', sender.cookie, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ clientId: randomUUID(), receiverId: receiver.id, content: `load ${n}` }),
          });
          if (sent.status !== 201) throw new Error(`Sending answered ${sent.status}: ${await sent.text()}`);
        }
      }),
    );
    const waited = new AbortController();
    const lost = sleep(30_000, undefined, { signal: waited.signal }).then(() => {
      throw new Error(`Only ${delivered} of ${total} messages arrived`);
    });
    try {
      await Promise.race([allDelivered, lost]);
    } finally {
      waited.abort();
    }
    return total / ((performance.now() - started) / 1000);
  } finally {
    socket.close();
  }
}

async function benchNodes(url: string, size: number) {
  const nodes = await startClusterBehindNginx(url, { name: `bench_${size}`, size, fanOut: 'postgres' });
  try {
    const cookies = await Promise.all(
      Array.from({ length: CLIENTS }, async () => (await nodes.cluster.signedIn()).cookie),
    );
    await roomListsPerSecond(nodes, cookies); // warm-up
    const rates: number[] = [];
    const chatRates: number[] = [];
    const latencies: number[] = [];
    for (let run = 0; run < ROUNDS; run++) {
      rates.push(await roomListsPerSecond(nodes, cookies));
      chatRates.push(await chatMessagesPerSecond(nodes));
      latencies.push(median(await chatLatencies(nodes)));
      await sleep(500);
    }
    return { requestsPerSecond: median(rates), chatPerSecond: median(chatRates), chatP50Ms: median(latencies) };
  } finally {
    await nodes.stop();
  }
}

/** Time of one download of a FILE_BYTES chat attachment through one node, median over DOWNLOADS, median of rounds. */
async function benchDownload(url: string, store: 'local' | 's3') {
  const nodes = await startClusterBehindNginx(url, { name: `bench_${store}`, size: 1, fanOut: 'postgres', store });
  try {
    const [sender, receiver] = [await nodes.cluster.signedIn(), await nodes.cluster.signedIn()];
    const uploaded = await nodes.through('/api/chat/uploads', sender.cookie, {
      method: 'POST',
      body: formData({}, { field: 'file', bytes: pngOfSize(FILE_BYTES), filename: 'big.png', type: 'image/png' }),
    });
    if (uploaded.status !== 201) throw new Error(`Uploading answered ${uploaded.status}: ${await uploaded.text()}`);
    const { fileKey, originalFilename } = (await uploaded.json()) as { fileKey: string; originalFilename: string };
    const sent = await nodes.through('/api/chat/messages', sender.cookie, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        clientId: randomUUID(),
        receiverId: receiver.id,
        content: 'file',
        attachment: { fileKey, originalFilename },
      }),
    });
    const { attachment } = (await sent.json()) as { attachment: { url: string } };
    const rounds: number[] = [];
    for (let run = 0; run < ROUNDS; run++) {
      const times: number[] = [];
      for (let n = 0; n < DOWNLOADS; n++) {
        const started = performance.now();
        const file = await nodes.through(attachment.url, receiver.cookie);
        const bytes = (await file.arrayBuffer()).byteLength;
        if (file.status !== 200 || bytes !== FILE_BYTES) throw new Error(`Downloading answered ${file.status}`);
        times.push(performance.now() - started);
      }
      rounds.push(median(times));
    }
    return median(rounds);
  } finally {
    await nodes.stop();
  }
}

const nodeRow = (result: Awaited<ReturnType<typeof benchNodes>>) => ({
  requests_per_s: round(result.requestsPerSecond),
  chat_messages_per_s: round(result.chatPerSecond),
  chat_p50_ms: round(result.chatP50Ms, 1),
});

export async function benchScaleOut() {
  const url = process.env.BENCH_DATABASE_URL!;
  const one = await benchNodes(url, 1);
  const two = await benchNodes(url, 2);
  const nodes = [
    { case: '1 node behind nginx', ...nodeRow(one) },
    { case: '2 nodes behind nginx', ...nodeRow(two) },
    {
      case: '2 nodes / 1 node',
      requests_per_s: round(two.requestsPerSecond / one.requestsPerSecond, 2),
      chat_messages_per_s: round(two.chatPerSecond / one.chatPerSecond, 2),
      chat_p50_ms: round(two.chatP50Ms / one.chatP50Ms, 2),
    },
  ];
  const local = await benchDownload(url, 'local');
  const s3 = await benchDownload(url, 's3');
  const downloads = [
    { store: 'local disk', download_p50_ms: round(local, 1) },
    { store: 'S3 (s3rver)', download_p50_ms: round(s3, 1) },
    { store: 'S3 / local', download_p50_ms: round(s3 / local, 2) },
  ];
  return { nodes, downloads };
}
