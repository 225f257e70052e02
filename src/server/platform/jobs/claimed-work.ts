import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { and, eq, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Database, Executor } from '../../db/client.ts';

// Claim, then call, then record (docs/decisions/0040): work that calls out (a payment provider, SMTP, push) claims
// its rows in one short statement, calls with no transaction open, and records the outcome in another short
// transaction. No connection is held through the call, so the embedded database's one backend stays free for
// requests, and a node that dies mid-call leaves rows whose lease lapses and that another node claims again.

/** A table of work rows: an id and the claim columns of `claimColumns()`. */
export type ClaimableTable = PgTable & {
  id: AnyPgColumn;
  claimToken: AnyPgColumn;
  claimedUntil: AnyPgColumn;
  claims: AnyPgColumn;
};

type RowOf<T extends ClaimableTable> = T['$inferSelect'] & { id: string; claims: number };

/** Where failures and given-up rows are told: the server's logger, or a test's list. */
type ClaimLog = { error(fields: object, message: string): void };

/**
 * What a call threw, as a work row's last_error keeps it for the people reading it: no NUL character (PostgreSQL's
 * text refuses it), and at most `maxLength` characters.
 */
export function storableError(error: unknown, maxLength: number) {
  const message = error instanceof Error ? error.message : String(error);
  return Array.from(message.replaceAll('\0', '')).slice(0, maxLength).join('');
}

/** How a call ended: its value, or what it threw. */
export type CallOutcome<Value> = { ok: true; value: Value } | { ok: false; error: unknown };

export type ClaimedWork<T extends ClaimableTable, Value> = {
  /** Names the work in the log. */
  name: string;
  table: T;
  /** Which rows want work, besides being free (e.g. pending and due). */
  due: SQL;
  /** The order rows are claimed in (oldest first). */
  order: AnyPgColumn;
  batchSize: number;
  /** How long a claim holds: longer than a call can take, since a row is claimed again once it lapses. */
  leaseMs: number;
  /**
   * How many times a row is called at most: claimed once more, it is given up uncalled. A row whose record always
   * fails (an outcome the table refuses) would otherwise be called again after every lease, forever.
   */
  maxClaims: number;
  /** The slow part, with no transaction open; it may run again for a row whose claim lapsed. */
  call(row: RowOf<T>): Promise<Value>;
  /** Writes the outcome in the transaction that ends the claim; runs once per claim, and only for its holder. */
  record(options: { db: Executor; row: RowOf<T>; outcome: CallOutcome<Value> }): Promise<void>;
  /** Writes the outcome of a row claimed past maxClaims, in the transaction that ends its claim; nothing is called. */
  giveUp(options: { db: Executor; row: RowOf<T> }): Promise<void>;
};

const leaseEndOf = (work: { leaseMs: number }) => sql`now() + make_interval(secs => ${work.leaseMs / 1000})`;

/**
 * Claims up to a batch of due, free rows under a new token in one statement. Rows another claimer has locked are
 * skipped, not waited for, so racing claimers never get the same row.
 */
export async function claimWork<T extends ClaimableTable, Value>({
  db,
  work,
}: {
  db: Executor;
  work: ClaimedWork<T, Value>;
}) {
  const { table } = work;
  const token = randomUUID();
  const free = or(isNull(table.claimedUntil), lte(table.claimedUntil, sql`now()`));
  // Read as a plain table: TypeScript 7 cannot settle drizzle's subquery check for a generic one.
  const source: PgTable = table;
  const claimable = db
    .select({ id: table.id })
    .from(source)
    .where(and(work.due, free))
    .orderBy(work.order)
    .limit(work.batchSize)
    .for('update', { skipLocked: true });
  const claim = {
    claimToken: token,
    claimedUntil: leaseEndOf(work),
    claims: sql`${table.claims} + 1`,
  };
  // Drizzle resolves no row type for a table known only by its constraint: these are the table's own rows.
  const rows = (await db
    .update(table)
    .set(claim as PgUpdateSetSource<T>)
    .where(inArray(table.id, claimable))
    .returning()) as unknown as RowOf<T>[];
  return { token, rows };
}

/**
 * Ends the claim and writes in one transaction, if the claim is still the token's: false (and nothing written) when
 * it was ended already, or lapsed and was claimed by another.
 */
function endClaim<T extends ClaimableTable>({
  db,
  table,
  token,
  row,
  write,
}: {
  db: Database;
  table: T;
  token: string;
  row: RowOf<T>;
  write: (tx: Executor) => Promise<void>;
}) {
  return db.transaction(async (tx) => {
    const ended = await tx
      .update(table)
      .set({ claimToken: null, claimedUntil: null } as PgUpdateSetSource<T>)
      .where(and(eq(table.id, row.id), eq(table.claimToken, token)))
      .returning({ id: table.id });
    if (ended.length === 0) return false;
    await write(tx);
    return true;
  });
}

/**
 * Ends the claim and records the outcome in one transaction, if the claim is still the token's: false (and nothing
 * written) when it was recorded already, or lapsed and was claimed by another.
 */
export function recordWorkOutcome<T extends ClaimableTable, Value>({
  db,
  work,
  token,
  row,
  outcome,
}: {
  db: Database;
  work: ClaimedWork<T, Value>;
  token: string;
  row: RowOf<T>;
  outcome: CallOutcome<Value>;
}) {
  return endClaim({ db, table: work.table, token, row, write: (tx) => work.record({ db: tx, row, outcome }) });
}

/**
 * Gives the row a whole lease again before it is worked, if the claim is still the token's: false when it lapsed
 * meanwhile and another claimed it, which is then the one to work it.
 */
async function renewClaim<T extends ClaimableTable, Value>({
  db,
  work,
  token,
  row,
}: {
  db: Database;
  work: ClaimedWork<T, Value>;
  token: string;
  row: RowOf<T>;
}) {
  const { table } = work;
  const renewed = await db
    .update(table)
    .set({ claimedUntil: leaseEndOf(work) } as PgUpdateSetSource<T>)
    .where(and(eq(table.id, row.id), eq(table.claimToken, token)))
    .returning({ id: table.id });
  return renewed.length > 0;
}

/** Gives up a row claimed past maxClaims without calling, and says so once in the log. */
async function giveUpWork<T extends ClaimableTable, Value>({
  db,
  work,
  token,
  row,
  log,
}: {
  db: Database;
  work: ClaimedWork<T, Value>;
  token: string;
  row: RowOf<T>;
  log: ClaimLog;
}) {
  const givenUp = await endClaim({ db, table: work.table, token, row, write: (tx) => work.giveUp({ db: tx, row }) });
  if (givenUp) {
    log.error(
      { work: work.name, rowId: row.id, claims: row.claims },
      'claimed work given up: claimed more times than it may be called, its outcome could not be recorded',
    );
  }
}

/**
 * Claims one batch, calls for each row in turn and records each outcome; resolves with the number of rows claimed.
 * A row whose record fails keeps its claim (it is worked again once that lapses) and the rest of the batch goes on,
 * rather than wait out the lease too; the first such failure is thrown once the batch is done. A row claimed past
 * maxClaims is given up instead of called. Each row's lease starts again as its turn comes, so a lease need only
 * outlast one row's calls; a row whose claim lapsed meanwhile and was taken by another is left to that one.
 */
export async function runClaimedWorkOnce<T extends ClaimableTable, Value>({
  db,
  work,
  log,
}: {
  db: Database;
  work: ClaimedWork<T, Value>;
  log: ClaimLog;
}) {
  const { token, rows } = await claimWork({ db, work });
  const recordFailures: unknown[] = [];
  for (const [index, row] of rows.entries()) {
    // The lease is a row's, not the batch's: the calls before this one took some of it. A renewal the database
    // refuses leaves the row to be worked once its claim lapses, like a record it refuses.
    const isOurs =
      index === 0 ||
      (await renewClaim({ db, work, token, row }).catch((error: unknown) => {
        recordFailures.push(error);
        return false;
      }));
    if (!isOurs) continue;
    if (row.claims > work.maxClaims) {
      await giveUpWork({ db, work, token, row, log }).catch((error: unknown) => recordFailures.push(error));
      continue;
    }
    const outcome = await work.call(row).then(
      (value): CallOutcome<Value> => ({ ok: true, value }),
      (error: unknown): CallOutcome<Value> => ({ ok: false, error }),
    );
    await recordWorkOutcome({ db, work, token, row, outcome }).catch((error: unknown) => recordFailures.push(error));
  }
  if (recordFailures.length > 0) throw recordFailures[0];
  return rows.length;
}

/**
 * Works through due rows at start, every intervalMs and whenever woken, batch after batch until none is left;
 * never two drains at once in a process. stop() waits for the batch in hand.
 */
export function startClaimedWork<T extends ClaimableTable, Value>({
  db,
  work,
  intervalMs,
  log,
}: {
  db: Database;
  work: ClaimedWork<T, Value>;
  intervalMs: number;
  log: ClaimLog;
}) {
  let running: Promise<void> | undefined;
  let wokenWhileRunning = false;
  let stopped = false;

  async function drain() {
    for (;;) {
      const claimed = await runClaimedWorkOnce({ db, work, log });
      if (claimed < work.batchSize || stopped) return;
    }
  }

  function wake() {
    if (stopped) return;
    if (running) {
      wokenWhileRunning = true;
      return;
    }
    running = (async () => {
      do {
        wokenWhileRunning = false;
        await drain();
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- wake() and stop() set these while drain() awaits
      } while (wokenWhileRunning && !stopped);
    })()
      .catch((error: unknown) => log.error({ err: error, work: work.name }, 'claimed work could not be processed'))
      .finally(() => {
        running = undefined;
      });
  }

  const timer = setInterval(wake, intervalMs);
  timer.unref();
  wake();

  return {
    /** Looks for due rows now rather than at the next interval. */
    wake,
    /** Stops looking and waits for the batch in hand. */
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/** Works through due rows while the app is up: started when it is ready, stopped (the batch in hand done) as it closes. */
export function runClaimedWorkWhileUp<T extends ClaimableTable, Value>(
  app: Pick<FastifyInstance, 'addHook'>,
  options: Parameters<typeof startClaimedWork<T, Value>>[0],
) {
  let worker: ReturnType<typeof startClaimedWork> | undefined;
  app.addHook('onReady', async () => {
    worker = startClaimedWork(options);
  });
  app.addHook('onClose', async () => {
    await worker?.stop();
  });
  return { wake: () => worker?.wake() };
}
