/**
 * What the driver's phone keeps between opens (record 050), in IndexedDB: the last run the server
 * sent (with the session's CSRF token), the queued actions in the order taken, and the answers the
 * driver has still to read (changes the server refused). Browser only; a thin promise wrapper over
 * IndexedDB's requests.
 */
import type { QueuedDriverAction } from "#app/features/orders/driver-actions.schema.ts";
import type { DriverRun } from "#app/features/orders/driver-run.server.ts";

const NAME = "capital-grown-driver";
const VERSION = 1;
const STATE = "state";
const QUEUE = "queue";

export type SavedRun = {
  run: DriverRun;
  csrf: string;
  name: string;
  /** The server's time when it sent this run. */
  savedAt: string;
};

/** A change the server refused, kept until the driver has read it. */
export type Refusal = { key: string; customerName: string; message: string };

export type PhoneMeta = { lastSentAt: string | null; refusals: Refusal[] };

/**
 * A queued action, with the customer's name for the driver's words and whose it is (the account's
 * e-mail): only that account's session sends it.
 */
export type WaitingAction = QueuedDriverAction & { customerName: string; driver: string };

function done<T>(request: IDBRequest<T>) {
  return new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function finished(transaction: IDBTransaction) {
  return new Promise<void>((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

let opened: Promise<IDBDatabase> | null = null;

function open() {
  opened ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(NAME, VERSION);
    request.onupgradeneeded = () => {
      const database = request.result;
      if (!database.objectStoreNames.contains(STATE)) database.createObjectStore(STATE);
      if (!database.objectStoreNames.contains(QUEUE)) database.createObjectStore(QUEUE, { keyPath: "key" });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return opened;
}

export async function loadPhone(): Promise<{
  saved: SavedRun | null;
  queue: WaitingAction[];
  meta: PhoneMeta;
}> {
  const database = await open();
  const transaction = database.transaction([STATE, QUEUE], "readonly");
  const [saved, meta, queue] = await Promise.all([
    done(transaction.objectStore(STATE).get("run")) as Promise<SavedRun | undefined>,
    done(transaction.objectStore(STATE).get("meta")) as Promise<PhoneMeta | undefined>,
    done(transaction.objectStore(QUEUE).getAll()) as Promise<WaitingAction[]>,
  ]);
  return {
    saved: saved ?? null,
    queue: queue.sort((a, b) => a.phoneTime.localeCompare(b.phoneTime)),
    meta: meta ?? { lastSentAt: null, refusals: [] },
  };
}

export async function saveRun(saved: SavedRun) {
  const database = await open();
  const transaction = database.transaction(STATE, "readwrite");
  transaction.objectStore(STATE).put(saved, "run");
  await finished(transaction);
}

export async function saveMeta(meta: PhoneMeta) {
  const database = await open();
  const transaction = database.transaction(STATE, "readwrite");
  transaction.objectStore(STATE).put(meta, "meta");
  await finished(transaction);
}

export async function addToQueue(action: WaitingAction) {
  const database = await open();
  const transaction = database.transaction(QUEUE, "readwrite");
  transaction.objectStore(QUEUE).put(action);
  await finished(transaction);
}

/** Drops the actions the server answered (applied or refused: either way, sent). */
export async function removeFromQueue(keys: readonly string[]) {
  const database = await open();
  const transaction = database.transaction(QUEUE, "readwrite");
  for (const key of keys) transaction.objectStore(QUEUE).delete(key);
  await finished(transaction);
}

/** Sign-out: nothing of the run stays on the phone. */
export async function clearPhone() {
  const database = await open();
  const transaction = database.transaction([STATE, QUEUE], "readwrite");
  transaction.objectStore(STATE).clear();
  transaction.objectStore(QUEUE).clear();
  await finished(transaction);
}
