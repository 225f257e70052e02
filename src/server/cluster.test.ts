import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startCluster, type Cluster } from '../../tests/support/cluster.ts';
import { formData, TINY_PNG } from '../../tests/support/files.ts';
import { findNginx, MISSING_NGINX, startNginx } from '../../tests/support/nginx.ts';
import { startS3Server, type S3Server } from '../../tests/support/s3-server.ts';
import { freePort, SERVER_COMMAND, startServerProcess } from '../../tests/support/server-process.ts';
import { connectSocket, nextEvent, type TestSocket } from '../../tests/support/socket-client.ts';
import { describeOnPostgres } from '../../tests/support/test-database.ts';
import { uniqueWord } from '../../tests/support/words.ts';
import type { ChatMessage, MessagePage, RoomPage } from '#shared/schemas/chat.ts';
import { messages } from './db/schema/chat.ts';

// Three server processes on one PostgreSQL database and one S3 bucket, behind nginx running deploy/nginx.conf as
// shipped: any node serves any user's files, events cross nodes, and a node stopped by SIGTERM loses no request.

const template = inject('databaseTemplate');
const nginxBinary = findNginx();
const NAME = 'three nodes behind nginx';

if (nginxBinary) describeOnPostgres(NAME, behindNginx(nginxBinary));
else describe.skip(`${NAME} (${MISSING_NGINX})`, behindNginx(''));

function behindNginx(nginxBinary: string) {
  return () => {
    let s3: S3Server;
    let cluster: Cluster;
    let proxy: Awaited<ReturnType<typeof startNginx>>;
    const sockets: TestSocket[] = [];

    beforeAll(async () => {
      if (template.kind !== 'postgres') return;
      s3 = await startS3Server();
      const port = await freePort();
      cluster = await startCluster(template.url, {
        name: 'nginx',
        size: 3,
        env: {
          ...s3.env,
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          TRUST_PROXY: '1',
          SHUTDOWN_DRAIN_DELAY_MS: '1000',
          READY_MAX_EVENT_LOOP_LAG_MS: '60000',
        },
        startTimeoutMs: 240_000,
      });
      proxy = await startNginx(nginxBinary, {
        port,
        upstreamPorts: cluster.servers.map((server) => Number(new URL(server.url).port)),
      });
    }, 300_000);

    afterAll(async () => {
      for (const socket of sockets) socket.close();
      await proxy.stop();
      await cluster.stop();
      await s3.close();
    });

    const through = (path: string, cookie: string, init: RequestInit = {}) =>
      fetch(`${proxy.url}${path}`, { ...init, headers: { cookie, origin: proxy.url, ...init.headers } });

    it('serves a file uploaded through one node from every node, and passes the message to a socket through nginx', async () => {
      const [student, teacher] = [await cluster.signedIn(), await cluster.signedIn()];
      // The teacher's socket through nginx (a WebSocket upgrade, to the node its address is routed to); the
      // student's requests go round the nodes.
      const socket = await connectSocket(proxy.url, { cookie: teacher.cookie });
      sockets.push(socket);
      const uploaded = await through('/api/chat/uploads', student.cookie, {
        method: 'POST',
        body: formData({}, { field: 'file', bytes: TINY_PNG, filename: 'graph.png', type: 'image/png' }),
      });
      expect(uploaded.status).toBe(201);
      const { fileKey, originalFilename } = (await uploaded.json()) as { fileKey: string; originalFilename: string };
      const arrives = nextEvent(socket, 'message:new', 15_000);
      const sent = await through('/api/chat/messages', student.cookie, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          clientId: randomUUID(),
          receiverId: teacher.id,
          content: 'The graph',
          attachment: { fileKey, originalFilename },
        }),
      });
      expect(sent.status).toBe(201);
      const [message] = await arrives;
      expect(message.content).toBe('The graph');

      for (const server of cluster.servers) {
        const file = await fetch(`${server.url}${message.attachment!.url}`, { headers: { cookie: teacher.cookie } });
        expect(file.status).toBe(200);
        expect(Buffer.from(await file.arrayBuffer()).equals(TINY_PNG)).toBe(true);
      }
      const viaProxy = await through(message.attachment!.url, teacher.cookie);
      expect(viaProxy.status).toBe(200);
      expect(viaProxy.headers.get('content-disposition')).toMatch(/^inline; filename="graph.png"/);
    }, 60_000);

    it('answers every request through nginx while a node drains and exits on SIGTERM', async () => {
      const teacher = await cluster.signedIn();
      const [first] = cluster.servers;
      const exited = new Promise<number | null>((resolve) => first!.child.once('exit', resolve));
      first!.child.kill('SIGTERM');
      const statuses: number[] = [];
      const running = () => first!.child.exitCode === null && first!.child.signalCode === null;
      while (running()) statuses.push((await through('/api/chat/rooms', teacher.cookie)).status);
      // A few more once it is gone: nginx passes them to the others.
      for (let n = 0; n < 6; n++) statuses.push((await through('/api/chat/rooms', teacher.cookie)).status);
      expect(await exited).toBe(0);
      expect(statuses.length).toBeGreaterThan(10);
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
    }, 60_000);

    it('restarts each node in turn under chat load: every acknowledged message stored once and seen once by the receiver', async () => {
      const receiver = await cluster.signedIn();
      const senders = [await cluster.signedIn(), await cluster.signedIn(), await cluster.signedIn()];
      // The receiver as the web app behaves: a socket through nginx that reconnects by itself, and after each
      // reconnect a refetch of its conversations (messages it missed meanwhile).
      const socket: TestSocket = io(proxy.url, {
        transports: ['websocket'],
        extraHeaders: { cookie: receiver.cookie },
        reconnectionDelay: 200,
        reconnectionDelayMax: 1_000,
      });
      sockets.push(socket);
      const live: string[] = [];
      const refetched = new Set<string>();
      const reconnectMs: number[] = [];
      let lostAt = 0;
      socket.on('message:new', (message) => live.push(message.id));
      socket.on('disconnect', () => (lostAt = performance.now()));
      const refetchOnce = async () => {
        const rooms = (await (await through('/api/chat/rooms?limit=100', receiver.cookie)).json()) as RoomPage;
        for (const room of rooms.rooms) {
          const page = (await (
            await through(`/api/chat/rooms/${room.id}/messages?limit=100`, receiver.cookie)
          ).json()) as MessagePage;
          for (const message of page.messages) refetched.add(message.id);
        }
      };
      // As the web app's queries retry: a request may meet nginx's 502 while a node restarts.
      const refetch = async () => {
        for (let tries = 1; ; tries++) {
          try {
            return await refetchOnce();
          } catch (error) {
            if (tries === 10) throw error;
            await new Promise((resolve) => setTimeout(resolve, 300));
          }
        }
      };
      socket.io.on('reconnect', () => {
        reconnectMs.push(Math.round(performance.now() - lostAt));
        void refetch();
      });
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));

      // Each sender as the web app's outbox: one message at a time, resent under the same clientId until stored.
      const acknowledged = new Map<string, string>(); // clientId -> message id
      let sending = true;
      const keepSending = () => sending;
      const send = async (sender: { cookie: string }) => {
        while (keepSending()) {
          const clientId = randomUUID();
          for (;;) {
            const answer = await through('/api/chat/messages', sender.cookie, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ clientId, receiverId: receiver.id, content: `load ${uniqueWord()}` }),
            }).catch(() => null);
            // 201 stored now; 200 stored by an earlier try whose answer was lost.
            if (answer?.status === 201 || answer?.status === 200) {
              acknowledged.set(clientId, ((await answer.json()) as ChatMessage).id);
              break;
            }
            // Refused sends count against the sender's ceiling too: a refused one waits longer.
            await new Promise((resolve) => setTimeout(resolve, answer ? 3_000 : 200));
          }
          // Under the ceiling of 60 messages a minute per sender.
          await new Promise((resolve) => setTimeout(resolve, 1_100));
        }
      };
      const load = Promise.all(senders.map(send));

      for (const [index, server] of cluster.servers.entries()) {
        const port = new URL(server.url).port;
        expect(await server.stop()).toBe(0);
        cluster.servers[index] = await startServerProcess(
          SERVER_COMMAND,
          { ...cluster.env, PORT: port, DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'vh-node-')) },
          240_000,
        );
      }
      sending = false;
      await load;
      await refetch();

      const ids = [...acknowledged.values()];
      expect(ids.length).toBeGreaterThan(10);
      const stored = await cluster.database.db
        .select({ clientId: messages.clientId })
        .from(messages)
        .where(inArray(messages.clientId, [...acknowledged.keys()]));
      expect(stored).toHaveLength(acknowledged.size);
      // Live at most once each; whatever was missed live was in a refetch.
      expect(new Set(live).size).toBe(live.length);
      expect(ids.filter((id) => !live.includes(id) && !refetched.has(id))).toEqual([]);
      console.log(
        `rolling restart of 3 nodes: ${ids.length} acknowledged messages, ${live.length} live, ` +
          `reconnects after ${reconnectMs.join(', ')} ms`,
      );
    }, 300_000);
  };
}
