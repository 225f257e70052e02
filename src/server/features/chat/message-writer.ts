import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { USER_LIMITS } from '#shared/constants.ts';
import { userLimitKey } from '../../platform/limits/usage-limits.ts';
import type { StoredMessage } from './message-columns.ts';

// Group commit of text messages between two people: the sends that arrive while the previous batch is written go to
// the database together, as one statement that counts the senders' uses, finds each pair's room, stores the
// messages and makes them their rooms' last ones. Each send learns its own outcome once that statement committed.

/** A text message to another person, as its sender wrote it. */
export type PlainMessage = { clientId: string; senderId: string; receiverId: string; content: string };

export type WriteOutcome =
  | { kind: 'stored'; message: StoredMessage }
  /** Its clientId was already stored: a retry. */
  | { kind: 'stored-before' }
  | { kind: 'rate-limited'; resetsAt: Date }
  /** The pair has no room yet, or the batch failed: the message goes the one-by-one way, which says why. */
  | { kind: 'write-alone' };

export type MessageWriter = { write(message: PlainMessage): Promise<WriteOutcome> };

const MAX_BATCH = 500;
const limit = USER_LIMITS.chatMessages;

/**
 * Plain SQL, prepared once per connection: the hot path skips building the query. A room's messages of one batch get
 * created_at values one microsecond apart in arrival order, after the room's last message (a clock can be coarser
 * than a batch: the embedded database's ticks in milliseconds), so its history keeps the order they came in. The use
 * counts are those of enforceUserLimit: one per message that has a room, the ones past the ceiling not stored.
 */
const BATCH_STATEMENT = `
with input as (
  select * from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[]) with ordinality
    as input(client_id, sender_id, receiver_id, content, limit_key, ord)
), roomed as (
  select input.*, chat_rooms.id as room_id, chat_rooms.last_message_at as room_last_message_at from input
  join chat_rooms
    on least(chat_rooms.participant1_id, chat_rooms.participant2_id) = least(input.sender_id, input.receiver_id)
   and greatest(chat_rooms.participant1_id, chat_rooms.participant2_id) = greatest(input.sender_id, input.receiver_id)
), counted as (
  insert into usage_counters as counter (key, hits)
  select limit_key, count(*) from roomed group by limit_key
  on conflict (key) do update set
    hits = case when counter.window_started_at <= now() - make_interval(secs => $7)
      then excluded.hits else counter.hits + excluded.hits end,
    window_started_at = case when counter.window_started_at <= now() - make_interval(secs => $7)
      then now() else counter.window_started_at end
  returning key, hits, window_started_at + make_interval(secs => $7) as resets_at
), ranked as (
  select roomed.*, counted.resets_at,
    counted.hits - count(*) over senders + row_number() over (senders order by roomed.ord) as use_number
  from roomed join counted on counted.key = roomed.limit_key
  window senders as (partition by roomed.limit_key)
), inserted as (
  insert into messages (client_id, room_id, sender_id, receiver_id, content, created_at)
  select client_id, room_id, sender_id, receiver_id, content,
    greatest(now(), room_last_message_at + interval '1 microsecond')
      + (row_number() over (partition by room_id order by ord) - 1) * interval '1 microsecond'
  from ranked where use_number <= $6
  on conflict (client_id) do nothing
  returning *
), touched as (
  update chat_rooms set last_message_at = latest.created_at, last_message_id = latest.id
  from (select distinct on (room_id) room_id, id, created_at from inserted order by room_id, created_at desc) as latest
  where chat_rooms.id = latest.room_id and chat_rooms.last_message_at <= latest.created_at
)
select ranked.room_id is not null as "hasRoom", ranked.use_number > $6 as "rateLimited", ranked.resets_at as "resetsAt",
  inserted.id, inserted.client_id as "clientId", inserted.room_id as "roomId", inserted.sender_id as "senderId",
  inserted.receiver_id as "receiverId", inserted.content, inserted.created_at as "createdAt",
  inserted.is_delivered as "isDelivered", inserted.is_read as "isRead", inserted.action_type as "actionType",
  inserted.file_url as "fileUrl", inserted.file_type as "fileType", inserted.original_filename as "originalFilename",
  inserted.file_size as "fileSize"
from input
left join ranked on ranked.ord = input.ord
left join inserted on inserted.client_id = input.client_id
order by input.ord`;

type BatchRow = { hasRoom: boolean; rateLimited: boolean | null; resetsAt: Date | null } & (
  StoredMessage | { [K in keyof StoredMessage]: null }
);

/**
 * Statement names are per connection in PostgreSQL, but the embedded database serves every connection from one
 * session: each pooled connection prepares the statement under a name of its own.
 */
const statementNames = new WeakMap<pg.PoolClient, string>();
let connectionsSeen = 0;
function statementNameFor(client: pg.PoolClient) {
  let name = statementNames.get(client);
  if (!name) {
    name = `chat_send_batch_${process.pid}_${++connectionsSeen}`;
    statementNames.set(client, name);
  }
  return name;
}

function outcomeOf(row: BatchRow): WriteOutcome {
  if (row.id !== null) return { kind: 'stored', message: row };
  if (!row.hasRoom) return { kind: 'write-alone' };
  if (row.rateLimited) return { kind: 'rate-limited', resetsAt: row.resetsAt! };
  return { kind: 'stored-before' };
}

type Pending = { message: PlainMessage; resolve(outcome: WriteOutcome): void };

/** One writer per database: one batch in flight at a time, the next made of what arrived meanwhile. */
export function createMessageWriter({ pool, log }: { pool: pg.Pool; log: FastifyBaseLogger }): MessageWriter {
  let queue: Pending[] = [];
  let busy = false;

  /** Up to MAX_BATCH queued sends with distinct clientIds; a repeated one waits for the next batch (then a retry). */
  const takeBatch = () => {
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    const clientIds = new Set<string>();
    for (const pending of queue) {
      if (batch.length < MAX_BATCH && !clientIds.has(pending.message.clientId)) {
        clientIds.add(pending.message.clientId);
        batch.push(pending);
      } else rest.push(pending);
    }
    queue = rest;
    return batch;
  };

  const writeBatch = async (batch: Pending[]) => {
    const client = await pool.connect();
    try {
      const { rows } = await client.query<BatchRow>({
        name: statementNameFor(client),
        text: BATCH_STATEMENT,
        values: [
          batch.map(({ message }) => message.clientId),
          batch.map(({ message }) => message.senderId),
          batch.map(({ message }) => message.receiverId),
          batch.map(({ message }) => message.content),
          batch.map(({ message }) => userLimitKey('chatMessages', message.senderId)),
          limit.max,
          limit.windowMs / 1000,
        ],
      });
      client.release();
      return rows.map(outcomeOf);
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
  };

  const flush = async () => {
    const batch = takeBatch();
    const outcomes = await writeBatch(batch).catch((error: unknown) => {
      log.error({ err: error }, 'a batch of chat messages failed; writing them one by one');
      return batch.map((): WriteOutcome => ({ kind: 'write-alone' }));
    });
    // In arrival order: each sender publishes right after its own outcome, so events follow the stored order.
    batch.forEach((pending, index) => pending.resolve(outcomes[index]!));
    if (queue.length > 0) setImmediate(() => void flush());
    else busy = false;
  };

  return {
    write(message) {
      return new Promise((resolve) => {
        queue.push({ message, resolve });
        if (busy) return;
        busy = true;
        setImmediate(() => void flush());
      });
    },
  };
}
