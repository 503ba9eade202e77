/**
 * What the driver's phone keeps between opens (record 050), in IndexedDB through `idb`: the last
 * run the server sent (with the session's CSRF token), the queued actions in the order taken, and
 * the answers the driver has still to read (changes the server refused). Browser only.
 */
import { type DBSchema, type IDBPDatabase, openDB } from "idb";
import type { QueuedDriverAction } from "#app/features/orders/driver-actions.schema.ts";
import type { DriverRun } from "#app/features/orders/driver-run.server.ts";

const NAME = "capital-grown-driver";
const VERSION = 1;

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

interface PhoneSchema extends DBSchema {
  /** Two records under fixed keys: "run" (a SavedRun) and "meta" (the PhoneMeta). */
  state: { key: "run" | "meta"; value: SavedRun | PhoneMeta };
  queue: { key: string; value: WaitingAction };
}

let opened: Promise<IDBPDatabase<PhoneSchema>> | null = null;

function open() {
  opened ??= openDB<PhoneSchema>(NAME, VERSION, {
    upgrade(database) {
      if (!database.objectStoreNames.contains("state")) database.createObjectStore("state");
      if (!database.objectStoreNames.contains("queue"))
        database.createObjectStore("queue", { keyPath: "key" });
    },
  });
  return opened;
}

export async function loadPhone(): Promise<{
  saved: SavedRun | null;
  queue: WaitingAction[];
  meta: PhoneMeta;
}> {
  const database = await open();
  const transaction = database.transaction(["state", "queue"], "readonly");
  const [saved, meta, queue] = await Promise.all([
    transaction.objectStore("state").get("run") as Promise<SavedRun | undefined>,
    transaction.objectStore("state").get("meta") as Promise<PhoneMeta | undefined>,
    transaction.objectStore("queue").getAll(),
    transaction.done,
  ]);
  return {
    saved: saved ?? null,
    queue: queue.sort((a, b) => a.phoneTime.localeCompare(b.phoneTime)),
    meta: meta ?? { lastSentAt: null, refusals: [] },
  };
}

export async function saveRun(saved: SavedRun) {
  const database = await open();
  await database.put("state", saved, "run");
}

export async function saveMeta(meta: PhoneMeta) {
  const database = await open();
  await database.put("state", meta, "meta");
}

export async function addToQueue(action: WaitingAction) {
  const database = await open();
  await database.put("queue", action);
}

/** Drops the actions the server answered (applied or refused: either way, sent). */
export async function removeFromQueue(keys: readonly string[]) {
  const database = await open();
  const transaction = database.transaction("queue", "readwrite");
  await Promise.all([...keys.map((key) => transaction.store.delete(key)), transaction.done]);
}

/** Sign-out: nothing of the run stays on the phone. */
export async function clearPhone() {
  const database = await open();
  const transaction = database.transaction(["state", "queue"], "readwrite");
  await Promise.all([
    transaction.objectStore("state").clear(),
    transaction.objectStore("queue").clear(),
    transaction.done,
  ]);
}
