// What this browser keeps for the person signed in, in IndexedDB (docs/decisions/0063): the last session and
// conversation list (to start without the network), messages not yet sent and drafts. All of it is personal:
// `clearDevice` empties it at sign-out. Plain IndexedDB behind four calls; a failure to open (a private window of
// some browsers) leaves the app working as before, without keeping anything.

import { ApiError } from './api.ts';

const DATABASE = 'virtual-help';
const VERSION = 1;

/** The stores: the outbox by message clientId, the others by a key of their own (a user's id, user and partner). */
export const STORES = ['session', 'rooms', 'outbox', 'drafts'] as const;
export type Store = (typeof STORES)[number];

let opened: Promise<IDBDatabase> | null = null;

function open() {
  opened ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DATABASE, VERSION);
    request.onupgradeneeded = () => {
      for (const store of STORES) {
        if (!request.result.objectStoreNames.contains(store)) request.result.createObjectStore(store);
      }
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB could not be opened'));
  }).catch((error: unknown) => {
    opened = null;
    throw error;
  });
  return opened;
}

/** Runs one request in a transaction of its own and resolves once that transaction has committed. */
async function run<T>(store: Store, mode: IDBTransactionMode, request: (objects: IDBObjectStore) => IDBRequest<T>) {
  const database = await open();
  return new Promise<T>((resolve, reject) => {
    const transaction = database.transaction(store, mode);
    const pending = request(transaction.objectStore(store));
    transaction.oncomplete = () => resolve(pending.result);
    transaction.onerror = () => reject(transaction.error ?? pending.error ?? new Error('IndexedDB request failed'));
    transaction.onabort = transaction.onerror;
  });
}

export const deviceDb = {
  get: <T>(store: Store, key: string) =>
    run(store, 'readonly', (objects) => objects.get(key) as IDBRequest<T | undefined>),
  /** Every value of a store, in the order of their keys. */
  all: <T>(store: Store) => run(store, 'readonly', (objects) => objects.getAll() as IDBRequest<T[]>),
  put: (store: Store, key: string, value: unknown) => run(store, 'readwrite', (objects) => objects.put(value, key)),
  delete: (store: Store, key: string) => run(store, 'readwrite', (objects) => objects.delete(key)),
};

/** Empties every store (at sign-out: whoever uses this browser next sees nothing of the last person). */
export async function clearDevice() {
  if (typeof indexedDB === 'undefined') return;
  const database = await open();
  await new Promise<void>((resolve, reject) => {
    const transaction = database.transaction([...STORES], 'readwrite');
    for (const store of STORES) transaction.objectStore(store).clear();
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB could not be cleared'));
  });
}

/**
 * The server's answer, kept on the device; when nobody answers (status 0: offline, the server away), the answer kept
 * last time, if any (`isUsable` may refuse it). For what the app must show to start without the network. The request
 * is given under way: callers load this module beside it, off the first page's download.
 */
export async function answerOrKept<T>({
  store,
  key,
  answer,
  isUsable = () => true,
}: {
  store: Store;
  key: string;
  answer: Promise<T>;
  isUsable?: (kept: T) => boolean;
}): Promise<T> {
  try {
    const answered = await answer;
    const write = answered === null ? deviceDb.delete(store, key) : deviceDb.put(store, key, answered);
    write.catch(() => undefined);
    return answered;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 0)) throw error;
    const kept = await deviceDb.get<T>(store, key).catch(() => undefined);
    if (kept === undefined || !isUsable(kept)) throw error;
    return kept;
  }
}
