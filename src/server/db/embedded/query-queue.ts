import type { PGlite } from '@electric-sql/pglite';

// A replacement for pglite-socket 0.2.17's query queue (electric-sql/pglite#1046, still open). PGlite has one
// backend session for every socket connection, and the stock queue hands it one protocol message at a time,
// keeping a connection to itself only inside a transaction. node-postgres sends each parameterised query as
// Parse/Bind/Describe/Execute/Sync outside any transaction, so two pool connections interleaved: one connection's
// Parse replaced the other's unnamed statement ("bind message supplies 1 parameters, but prepared statement ""
// requires 4", or silently wrong rows). The stock queue also stopped for good after one failed message.
// Here a connection owns the session from its first message until the backend is ready for the next query
// (after Sync, a simple Query or the startup message) and, inside a transaction, until it ends.

type Entry = {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
};

const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const TERMINATE = 0x58; // 'X'
const PROTOCOL_VERSION_3 = 196608;

/** True when the backend answers this message with ReadyForQuery: the connection's exchange is complete. */
function endsExchange(message: Uint8Array) {
  const type = message[0];
  if (type === SYNC || type === QUERY || type === TERMINATE) return true;
  // The startup message has no type byte: its length, then the protocol version.
  return (
    message.length >= 8 &&
    new DataView(message.buffer, message.byteOffset, message.byteLength).getInt32(4) === PROTOCOL_VERSION_3
  );
}

/** Has the methods of pglite-socket's QueryQueueManager that its handlers and server call. */
export class ExclusiveQueryQueue {
  private queue: Entry[] = [];
  private processing = false;
  /** The connection in the middle of an exchange or a transaction: only its messages run until it is done. */
  private owner: number | null = null;

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void) {
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.process();
    });
  }

  private async process() {
    if (this.processing) return;
    this.processing = true;
    try {
      for (;;) {
        const index = this.owner === null ? 0 : this.queue.findIndex((entry) => entry.handlerId === this.owner);
        // The owner's next message is still on its way: it restarts processing when it is enqueued.
        if (index === -1 || index >= this.queue.length) break;
        const [entry] = this.queue.splice(index, 1) as [Entry];
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(entry.message, {
              onRawData: (data) => {
                bytes += data.length;
                entry.onData(data);
              },
            }),
          );
        } catch (error) {
          entry.reject(error);
          continue;
        }
        this.owner = endsExchange(entry.message) && !this.db.isInTransaction() ? null : entry.handlerId;
        entry.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }

  getQueueLength() {
    return this.queue.length;
  }

  clearQueueForHandler(handlerId: number) {
    this.queue = this.queue.filter((entry) => {
      if (entry.handlerId !== handlerId) return true;
      entry.reject(new Error('Handler disconnected'));
      return false;
    });
  }

  /** A connection that went away mid-exchange or mid-transaction releases the session (rolling back). */
  async clearTransactionIfNeeded(handlerId: number) {
    if (this.owner !== handlerId) return;
    if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    this.owner = null;
    await this.process();
  }
}
