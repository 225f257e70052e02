import type { ChatMessage, SendMessageInput } from '#shared/schemas/chat.ts';
import { ApiError } from '#web/lib/api.ts';

// The queue of one person's messages on their way (docs/decisions/0063): kept on the device until the server has
// stored them, sent one at a time in the order they were written, each under its clientId so that the server
// stores it once however often it is sent. Knows nothing of React or IndexedDB: the store and the sender are given.

/** `sending`: next in line or on its way; `waiting`: for the connection to return; `failed`: refused, for Retry. */
export type OutboxStatus = 'sending' | 'waiting' | 'failed';

export type OutboxEntry = {
  input: SendMessageInput;
  userId: string;
  createdAt: string;
  /** The order of writing (createdAt may repeat within a millisecond). */
  order: number;
  status: OutboxStatus;
  /** Not shown and not kept: a text the composer expects the server to refuse (use-outbox.ts). */
  quiet?: boolean;
};

/** How an entry left the queue: stored, refused by moderation, or a quiet one refused otherwise. */
export type Settled = { stored: ChatMessage } | { blocked: ApiError } | { unsent: unknown };

export type OutboxStore = {
  load(userId: string): Promise<OutboxEntry[]>;
  save(entry: OutboxEntry): Promise<unknown>;
  remove(clientId: string): Promise<unknown>;
};

type OutboxOptions = {
  userId: string;
  store: OutboxStore;
  /** Sends once, with its own retries; rejects with ApiError (status 0: no answer). */
  send: (input: SendMessageInput) => Promise<ChatMessage>;
  isOnline: () => boolean;
  /** An entry refused for a reason sending again will not change (it stays, marked failed). */
  onFailed: (entry: OutboxEntry, error: unknown) => void;
  onStored: (message: ChatMessage) => void;
};

/** Nobody answered (no network, the server away): the message waits for the connection rather than failing. */
const isUnanswered = (error: unknown) => error instanceof ApiError && error.status === 0;

export class Outbox {
  private entries: OutboxEntry[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly settlers = new Map<string, (settled: Settled) => void>();
  private flushing: Promise<void> | null = null;
  private nextOrder = 0;

  constructor(private readonly options: OutboxOptions) {}

  get userId() {
    return this.options.userId;
  }

  /** The entries in the order they will be sent (a new array after every change). */
  get current(): readonly OutboxEntry[] {
    return this.entries;
  }

  subscribe(listener: () => void) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Takes back what an earlier page load left unsent, behind nothing already queued here, and sends it. */
  async restore() {
    const kept = await this.options.store.load(this.options.userId);
    const known = new Set(this.entries.map((entry) => entry.input.clientId));
    const restored = kept
      .filter((entry) => !known.has(entry.input.clientId))
      .toSorted((a, b) => a.order - b.order)
      .map((entry): OutboxEntry => ({ ...entry, status: entry.status === 'failed' ? 'failed' : 'sending' }));
    this.nextOrder = Math.max(this.nextOrder, ...kept.map((entry) => entry.order + 1));
    this.entries = [...restored, ...this.entries].toSorted((a, b) => a.order - b.order);
    this.changed();
    return this.flush();
  }

  /** Queues a message (kept on the device first) and resolves once it has left the queue. */
  async enqueue(input: SendMessageInput, { quiet = false } = {}) {
    const entry: OutboxEntry = {
      input,
      userId: this.options.userId,
      createdAt: new Date().toISOString(),
      order: Math.max(this.nextOrder, Date.now()),
      status: 'sending',
      ...(quiet ? { quiet } : {}),
    };
    this.nextOrder = entry.order + 1;
    const settled = new Promise<Settled>((resolve) => this.settlers.set(input.clientId, resolve));
    this.entries = [...this.entries, entry];
    this.changed();
    if (!quiet) await this.options.store.save(entry).catch(() => undefined);
    void this.flush();
    return settled;
  }

  /** Sends again what waits for the connection (the browser is online, the socket connected). */
  resume() {
    this.setStatus((entry) => entry.status === 'waiting', 'sending');
    return this.flush();
  }

  retry(clientId: string) {
    this.setStatus((entry) => entry.input.clientId === clientId && entry.status !== 'sending', 'sending');
    return this.flush();
  }

  /**
   * Sends the queued entries one at a time; stops at the first that finds no connection, keeping the order. While a
   * run is under way it answers that run, which takes whatever is queued meanwhile.
   */
  flush() {
    this.flushing ??= this.sendQueued().finally(() => {
      this.flushing = null;
      // Queued after the run's last look, before it ended.
      if (this.entries.some((entry) => entry.status === 'sending')) void this.flush();
    });
    return this.flushing;
  }

  private async sendQueued() {
    for (;;) {
      const next = this.entries.find((entry) => entry.status === 'sending');
      if (!next) return;
      if (!this.options.isOnline() || !(await this.deliver(next))) {
        this.setStatus((entry) => entry.status === 'sending', 'waiting');
        return;
      }
    }
  }

  /** One entry to the server; false when nobody answered (it waits, and so do those behind it). */
  private async deliver(entry: OutboxEntry) {
    const { clientId } = entry.input;
    try {
      const message = await this.options.send(entry.input);
      this.options.onStored(message);
      await this.settle(entry, { stored: message });
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'MESSAGE_BLOCKED') {
        await this.settle(entry, { blocked: error });
        return true;
      }
      if (entry.quiet) {
        await this.settle(entry, { unsent: error });
        return true;
      }
      if (isUnanswered(error)) return false;
      this.setStatus((candidate) => candidate.input.clientId === clientId, 'failed');
      const failed = this.entries.find((candidate) => candidate.input.clientId === clientId);
      if (failed) await this.options.store.save(failed).catch(() => undefined);
      this.options.onFailed(entry, error);
      return true;
    }
  }

  private async settle(entry: OutboxEntry, settled: Settled) {
    const { clientId } = entry.input;
    this.entries = this.entries.filter((candidate) => candidate.input.clientId !== clientId);
    this.changed();
    if (!entry.quiet) await this.options.store.remove(clientId).catch(() => undefined);
    this.settlers.get(clientId)?.(settled);
    this.settlers.delete(clientId);
  }

  private setStatus(predicate: (entry: OutboxEntry) => boolean, status: OutboxStatus) {
    if (!this.entries.some((entry) => predicate(entry) && entry.status !== status)) return;
    this.entries = this.entries.map((entry) => (predicate(entry) ? { ...entry, status } : entry));
    this.changed();
  }

  private changed() {
    for (const listener of this.listeners) listener();
  }
}
