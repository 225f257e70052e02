import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ChatMessage } from '#shared/schemas/chat.ts';
import { startCluster, type Cluster } from '../../tests/support/cluster.ts';
import { createSessionCookie, createSubAdmin } from '../../tests/support/factories.ts';
import {
  findRedisServer,
  MISSING_REDIS_SERVER,
  startRedisServer,
  type RedisServer,
} from '../../tests/support/redis-server.ts';
import type { ServerProcess } from '../../tests/support/server-process.ts';
import { connectSocket, nextEvent, type TestSocket } from '../../tests/support/socket-client.ts';
import { describeOnPostgres } from '../../tests/support/test-database.ts';
import { uniqueWord } from '../../tests/support/words.ts';

// Two server processes fanning out through a Redis server of the test's own, under chat load on both: Redis is
// stopped and started again, and PostgreSQL ends every connection. Neither process may end, both must recover,
// and every message either acknowledged must be stored exactly once. `npm run test:faults` repeats the blips.
const ROUNDS = Number(process.env.FAULT_ROUNDS ?? 1);
const IN_FLIGHT = 4;

const template = inject('databaseTemplate');
const redisBinary = findRedisServer();
const NAME = 'a two-process cluster through Redis and PostgreSQL blips';

if (redisBinary) describeOnPostgres(NAME, faults(redisBinary));
else describe.skip(`${NAME} (${MISSING_REDIS_SERVER})`, faults(''));

function faults(redisBinary: string) {
  return () => {
    const sockets: TestSocket[] = [];
    let redis: RedisServer;
    let cluster: Cluster;

    beforeAll(async () => {
      if (template.kind !== 'postgres') return;
      redis = await startRedisServer(redisBinary);
      // Two processes starting on a busy machine may each take a minute or two.
      cluster = await startCluster(template.url, {
        name: 'faults',
        env: { REDIS_URL: redis.url },
        startTimeoutMs: 240_000,
      });
    }, 600_000);

    afterAll(async () => {
      for (const socket of sockets) socket.close();
      await cluster.stop();
      await redis.stop();
    });

    const servers = () => cluster.servers as [ServerProcess, ServerProcess];
    const statusOf = async (server: ServerProcess, path: string) => (await fetch(`${server.url}${path}`)).status;
    /** Waits until both processes answer `path` with this status. */
    const bothAnswer = (path: string, status: number, timeout = 20_000) =>
      Promise.all(servers().map((server) => expect.poll(() => statusOf(server, path), { timeout }).toBe(status)));
    const bothAlive = async () => {
      for (const server of servers()) {
        expect(server.child.exitCode, server.output()).toBeNull();
        expect(await statusOf(server, '/livez')).toBe(200);
      }
    };

    const connectedUser = async (server: ServerProcess) => {
      const user = await cluster.signedIn();
      const socket = await connectSocket(server.url, { cookie: user.cookie });
      sockets.push(socket);
      return { ...user, socket };
    };

    /**
     * Sends through `server` to the receiver until stopped, IN_FLIGHT senders at a time, each replaced by a new one
     * before the per-user message ceiling (60 a minute) would hold it back; keeps the client ids acknowledged.
     */
    const chatLoad = (server: ServerProcess, receiverId: string) => {
      const acknowledged: string[] = [];
      let stopped = false;
      // Read through a call: the flag is set from outside the loops.
      const running = () => !stopped;
      const pause = () => new Promise((resolve) => setTimeout(resolve, 100));
      const sender = async () => {
        while (running()) {
          const socket = await connectedUser(server).then(
            (user) => user.socket,
            () => undefined, // the database is away: no new sender yet
          );
          if (!socket) {
            await pause();
            continue;
          }
          for (let sent = 0; sent < 50 && running();) {
            const clientId = randomUUID();
            const ack = await socket
              .timeout(5_000)
              .emitWithAck('message:send', { clientId, receiverId, content: `load ${uniqueWord()}` })
              .catch(() => ({ ok: false }));
            if (ack.ok) {
              acknowledged.push(clientId);
              sent++;
            } else await pause(); // refused while the database is away: the next try waits a little
          }
          socket.close();
        }
      };
      const senders = Promise.all(Array.from({ length: IN_FLIGHT }, sender));
      return {
        acknowledged,
        /** Resolves once `count` more sends than now were acknowledged. */
        async progress(count = 5) {
          const target = acknowledged.length + count;
          await expect.poll(() => acknowledged.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(target);
        },
        async stop() {
          stopped = true;
          await senders;
        },
      };
    };

    /** Resolves once a message sent through `via` from now on reaches the receiver's socket on another node. */
    const crossesAgain = async (via: ServerProcess, receiver: { id: string; socket: TestSocket }) => {
      // A sender of its own, whom the load's per-user ceiling does not concern.
      const sender = await cluster.signedIn();
      for (let attempt = 0; attempt < 30; attempt++) {
        const clientId = randomUUID();
        const arrived = new Promise<boolean>((resolve) => {
          const listener = (message: ChatMessage) => {
            if (message.clientId !== clientId) return;
            receiver.socket.off('message:new', listener);
            resolve(true);
          };
          receiver.socket.on('message:new', listener);
          setTimeout(() => {
            receiver.socket.off('message:new', listener);
            resolve(false);
          }, 1_000);
        });
        const response = await fetch(`${via.url}/api/chat/messages`, {
          method: 'POST',
          headers: { cookie: sender.cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ clientId, receiverId: receiver.id, content: `Across again ${attempt}` }),
        });
        expect(response.status).toBe(201);
        if (await arrived) return;
      }
      throw new Error('No message crossed between the processes after the blip');
    };

    it(
      `stays up, recovers and stores every acknowledged message through ${ROUNDS} Redis and PostgreSQL blip(s)`,
      async () => {
        const [first, second] = servers();
        const alice = await connectedUser(first);
        const bob = await connectedUser(second);
        const loads = [chatLoad(first, bob.id), chatLoad(second, alice.id)];
        const progress = () => Promise.all(loads.map((load) => load.progress()));
        await bothAnswer('/readyz', 200);
        await progress();

        for (let round = 0; round < ROUNDS; round++) {
          await redis.stop();
          // Chat goes on through the database while the fan-out is away; each process only reports it.
          await progress();
          await bothAlive();
          await bothAnswer('/readyz', 503);
          await redis.start();
          await bothAnswer('/readyz', 200);
          await crossesAgain(first, bob);
          await crossesAgain(second, alice);

          expect(await cluster.terminateDatabaseConnections()).toBeGreaterThanOrEqual(2);
          await progress();
          await bothAlive();
          await bothAnswer('/readyz', 200);
          await crossesAgain(first, bob);
        }

        await Promise.all(loads.map((load) => load.stop()));
        await bothAlive();
        const acknowledged = loads.flatMap((load) => load.acknowledged);
        const { rows } = await cluster.database.pool.query<{ client_id: string; copies: number }>(
          'select client_id, count(*)::int as copies from messages where client_id = any($1) group by client_id',
          [acknowledged],
        );
        const stored = new Map(rows.map((row) => [row.client_id, row.copies]));
        expect(acknowledged.filter((clientId) => stored.get(clientId) !== 1)).toEqual([]);
        console.info(`dependency faults: ${ROUNDS} round(s), ${acknowledged.length} acknowledged messages checked`);
      },
      90_000 + ROUNDS * 60_000,
    );

    it('closes the socket of a user suspended through the other process while Redis was down, once it is back', async () => {
      const [first, second] = servers();
      const carol = await connectedUser(second);
      // Counted from here: stopping Redis, the suspension and Redis's restart come first, slowly on a busy machine.
      const ended = nextEvent(carol.socket, 'session:ended', 60_000);
      const admin = await createSubAdmin(cluster.database.db, ['users']);
      const adminCookie = (await createSessionCookie(cluster.database.db, admin.id)).header;

      await redis.stop();
      await bothAnswer('/readyz', 503);
      const suspension = await fetch(`${first.url}/api/admin/users/${carol.id}/suspension`, {
        method: 'POST',
        headers: { cookie: adminCookie, 'content-type': 'application/json' },
        body: JSON.stringify({ reason: 'Spam' }),
      });
      expect(suspension.status).toBe(200);
      await redis.start();
      await ended;
      await bothAlive();
    }, 120_000);
  };
}
