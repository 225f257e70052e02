import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { formData, TINY_PNG } from '../../tests/support/files.ts';
import {
  missingForCluster,
  startClusterBehindNginx,
  type ClusterBehindNginx,
  type FanOut,
} from '../../tests/support/nginx-cluster.ts';
import { connectSocket, nextEvent, type TestSocket } from '../../tests/support/socket-client.ts';
import { describeOnPostgres } from '../../tests/support/test-database.ts';
import { HOUR_MS } from '../../tests/support/time.ts';
import { uniqueWord } from '../../tests/support/words.ts';
import type { ChatMessage, MessagePage, RoomPage } from '#shared/schemas/chat.ts';
import { messages } from './db/schema/chat.ts';
import { meetingReminders } from './db/schema/meetings.ts';
import { notifications } from './db/schema/notifications.ts';

// Server processes on one PostgreSQL database and one S3 bucket, behind nginx running deploy/nginx.conf as shipped:
// any node serves any user's files, events cross nodes through either fan-out, a long-polling client stays on its
// node, periodic jobs run once across nodes, and a node stopped by SIGTERM loses no request. Three nodes fan out
// through PostgreSQL; two through Redis, enough to cross nodes at two thirds of the time.

const template = inject('databaseTemplate');
const FAN_OUTS: { fanOut: FanOut; size: number }[] = [
  { fanOut: 'postgres', size: 3 },
  { fanOut: 'redis', size: 2 },
];

for (const { fanOut, size } of FAN_OUTS) {
  const name = `${size} nodes behind nginx, fanning out through ${fanOut === 'redis' ? 'Redis' : 'PostgreSQL'}`;
  const missing = missingForCluster(fanOut);
  if (missing) describe.skip(`${name} (${missing})`, behindNginx(fanOut, size));
  else describeOnPostgres(name, behindNginx(fanOut, size));
}

function behindNginx(fanOut: FanOut, size: number) {
  return () => {
    let nodes: ClusterBehindNginx;
    const sockets: TestSocket[] = [];

    beforeAll(async () => {
      if (template.kind !== 'postgres') return;
      nodes = await startClusterBehindNginx(template.url, { name: `nginx_${fanOut}`, size, fanOut });
    }, 300_000);

    afterAll(async () => {
      for (const socket of sockets) socket.close();
      await nodes.stop();
    });

    /** A teacher and a student with a meeting two days ahead, its 24-hour reminder moved back to fall due now. */
    const scheduledMeetingDueForReminder = async () => {
      const teacher = await nodes.cluster.signedIn({ role: 'teacher' });
      const student = await nodes.cluster.signedIn();
      const post = (to: string, body: unknown) =>
        nodes.through(to, teacher.cookie, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const room = (await (await post('/api/chat/rooms', { partnerId: student.id })).json()) as {
        room: { id: string };
      };
      const scheduled = await post(`/api/chat/rooms/${room.room.id}/meetings`, {
        title: 'Calculus review',
        startTime: new Date(Date.now() + 48 * HOUR_MS).toISOString(),
      });
      expect(scheduled.status).toBe(201);
      const { meeting } = (await scheduled.json()) as { meeting: { id: string } };
      const due = await nodes.cluster.database.db
        .update(meetingReminders)
        .set({ dueAt: sql`now()` })
        .where(and(eq(meetingReminders.meetingId, meeting.id), eq(meetingReminders.kind, '24h')))
        .returning();
      expect(due).toHaveLength(1);
      return { teacher, student };
    };

    it('serves a file uploaded through one node from every node, and passes the message to a socket through nginx', async () => {
      const [student, teacher] = [await nodes.cluster.signedIn(), await nodes.cluster.signedIn()];
      // The teacher's socket through nginx (a WebSocket upgrade, to the node its address is routed to), and one on
      // each node directly, so that the message crosses from whichever node takes it to every other; the
      // student's requests go round the nodes.
      const socket = await connectSocket(nodes.proxy.url, { cookie: teacher.cookie });
      const onEachNode = await Promise.all(
        nodes.cluster.servers.map((server) => connectSocket(server.url, { cookie: teacher.cookie })),
      );
      sockets.push(socket, ...onEachNode);
      const uploaded = await nodes.through('/api/chat/uploads', student.cookie, {
        method: 'POST',
        body: formData({}, { field: 'file', bytes: TINY_PNG, filename: 'graph.png', type: 'image/png' }),
      });
      expect(uploaded.status).toBe(201);
      const { fileKey, originalFilename } = (await uploaded.json()) as { fileKey: string; originalFilename: string };
      const arrives = Promise.all([socket, ...onEachNode].map((each) => nextEvent(each, 'message:new', 15_000)));
      const sent = await nodes.through('/api/chat/messages', student.cookie, {
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
      const [viaProxySocket, ...elsewhere] = (await arrives).map(([each]) => each);
      const message = viaProxySocket!;
      expect(message.content).toBe('The graph');
      expect(elsewhere.map((each) => each.id)).toEqual(onEachNode.map(() => message.id));

      for (const server of nodes.cluster.servers) {
        const file = await fetch(`${server.url}${message.attachment!.url}`, { headers: { cookie: teacher.cookie } });
        expect(file.status).toBe(200);
        expect(Buffer.from(await file.arrayBuffer()).equals(TINY_PNG)).toBe(true);
      }
      const viaProxy = await nodes.through(message.attachment!.url, teacher.cookie);
      expect(viaProxy.status).toBe(200);
      expect(viaProxy.headers.get('content-disposition')).toMatch(/^inline; filename="graph.png"/);
    }, 60_000);

    it('keeps a client on long-polling with the node that holds its Socket.IO session, through nginx', async () => {
      const [student, teacher] = [await nodes.cluster.signedIn(), await nodes.cluster.signedIn()];
      // A client whose network blocks WebSockets: each of its requests must reach the node that holds its session
      // (the /socket.io/ upstream routes by address); on any other node the session is unknown and it drops.
      const polling: TestSocket = io(nodes.proxy.url, {
        transports: ['polling'],
        reconnection: false,
        extraHeaders: { cookie: student.cookie },
      });
      sockets.push(polling);
      const dropped: string[] = [];
      polling.on('disconnect', (reason) => dropped.push(reason));
      await new Promise<void>((resolve, reject) => {
        polling.once('connect', () => resolve());
        polling.once('connect_error', reject);
      });
      // Sends go up in requests of their own, acknowledgements and events come down in the long poll.
      for (let n = 0; n < 2 * nodes.cluster.servers.length; n++) {
        const ack = await polling
          .timeout(10_000)
          .emitWithAck('message:send', { clientId: randomUUID(), receiverId: teacher.id, content: `poll ${n}` });
        expect(ack).toMatchObject({ ok: true });
      }
      const arrives = nextEvent(polling, 'message:new', 15_000);
      const reply = await nodes.through('/api/chat/messages', teacher.cookie, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: randomUUID(), receiverId: student.id, content: 'Got them all' }),
      });
      expect(reply.status).toBe(201);
      expect((await arrives)[0].content).toBe('Got them all');
      expect(polling.io.engine.transport.name).toBe('polling');
      expect(dropped).toEqual([]);
    }, 60_000);

    it('answers every request through nginx while a node drains and exits on SIGTERM', async () => {
      const teacher = await nodes.cluster.signedIn();
      const [first] = nodes.cluster.servers;
      const exited = new Promise<number | null>((resolve) => first!.child.once('exit', resolve));
      first!.child.kill('SIGTERM');
      const statuses: number[] = [];
      const running = () => first!.child.exitCode === null && first!.child.signalCode === null;
      while (running()) statuses.push((await nodes.through('/api/chat/rooms', teacher.cookie)).status);
      // A few more once it is gone: nginx passes them to the others.
      for (let n = 0; n < 6; n++) statuses.push((await nodes.through('/api/chat/rooms', teacher.cookie)).status);
      expect(await exited).toBe(0);
      expect(statuses.length).toBeGreaterThan(10);
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
    }, 60_000);

    it('restarts each node in turn under chat load: every acknowledged message stored once and seen once by the receiver, a due reminder sent once', async () => {
      const receiver = await nodes.cluster.signedIn();
      const senders = [await nodes.cluster.signedIn(), await nodes.cluster.signedIn(), await nodes.cluster.signedIn()];
      // The receiver as the web app behaves: a socket through nginx that reconnects by itself, and after each
      // reconnect a refetch of its conversations (messages it missed meanwhile).
      const socket: TestSocket = io(nodes.proxy.url, {
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
        const rooms = (await (await nodes.through('/api/chat/rooms?limit=100', receiver.cookie)).json()) as RoomPage;
        for (const room of rooms.rooms) {
          const page = (await (
            await nodes.through(`/api/chat/rooms/${room.id}/messages?limit=100`, receiver.cookie)
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
            if (tries === 30) throw error;
            await new Promise((resolve) => setTimeout(resolve, 300));
          }
        }
      };
      // Awaited at the end, so one that gives up fails the test rather than going unseen.
      const reconnectRefetches: Promise<void>[] = [];
      socket.io.on('reconnect', () => {
        reconnectMs.push(Math.round(performance.now() - lostAt));
        const attempt = refetch();
        attempt.catch(() => undefined); // handled where it is awaited, at the end
        reconnectRefetches.push(attempt);
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
            const answer = await nodes
              .through('/api/chat/messages', sender.cookie, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ clientId, receiverId: receiver.id, content: `load ${uniqueWord()}` }),
              })
              .catch(() => null);
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

      // A meeting whose 24-hour reminder falls due now: every node runs the reminders job as it starts and every
      // minute after, racing the others; both participants must be reminded once.
      const { teacher, student } = await scheduledMeetingDueForReminder();

      for (const index of nodes.cluster.servers.keys()) expect(await nodes.restartNode(index)).toBe(0);
      sending = false;
      await load;
      await Promise.all(reconnectRefetches);
      await refetch();

      for (const participant of [teacher, student]) {
        const reminded = () =>
          nodes.cluster.database.db.$count(
            notifications,
            and(eq(notifications.userId, participant.id), sql`${notifications.message} like 'Reminder:%'`),
          );
        await expect.poll(reminded, { timeout: 15_000 }).toBeGreaterThan(0);
        expect(await reminded()).toBe(1);
      }

      const ids = [...acknowledged.values()];
      expect(ids.length).toBeGreaterThan(10);
      const stored = await nodes.cluster.database.db
        .select({ clientId: messages.clientId })
        .from(messages)
        .where(inArray(messages.clientId, [...acknowledged.keys()]));
      expect(stored).toHaveLength(acknowledged.size);
      // Live at most once each; whatever was missed live was in a refetch.
      expect(new Set(live).size).toBe(live.length);
      expect(ids.filter((id) => !live.includes(id) && !refetched.has(id))).toEqual([]);
      console.log(
        `rolling restart of ${size} nodes (${fanOut}): ${ids.length} acknowledged messages, ${live.length} live, ` +
          `reconnects after ${reconnectMs.join(', ')} ms`,
      );
    }, 300_000);
  };
}
