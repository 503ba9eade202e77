/**
 * The run page's offline half (record 050): keeps the run on the phone (IndexedDB), registers the
 * driver app's service worker, and, while there is no signal or changes are still waiting, turns
 * the page's forms into queued actions with the phone's time and an idempotency key. The queue is
 * sent to `/driver/sync` when the signal is back and on the next open; the server's answers replace
 * the run, and the changes it refused are shown until the driver has read them.
 * With signal and nothing waiting the forms post as they always did.
 */
import {
  type FormEvent,
  memo,
  type ReactNode,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import type { DriverAction, DriverActionOutcome } from "#app/features/orders/driver-actions.schema.ts";
import type { DriverRun } from "#app/features/orders/driver-run.server.ts";
import {
  actionFromForm,
  actionSubject,
  nextBatch,
  runWithPending,
  SYNC_FIELD,
  syncBannerText,
} from "#app/features/orders/driver-sync.ts";
import { STORE_TIME_ZONE } from "#app/utils/store-time.ts";
import { DriverQueueContext } from "./driver-queue-context.ts";
import { type ActionMessage, DriverRunScreen } from "./driver-run.tsx";
import {
  addToQueue,
  clearPhone,
  loadPhone,
  type PhoneMeta,
  type Refusal,
  removeFromQueue,
  type SavedRun,
  saveMeta,
  saveRun,
  type WaitingAction,
} from "./phone-store.ts";

/** The run re-renders only when what it shows changes (not when the phone's copy is read). */
const RunScreen = memo(DriverRunScreen);

type SyncAnswer = {
  outcomes: DriverActionOutcome[];
  run: DriverRun;
  csrf: string;
  name: string;
  syncedAt: string;
};

const NOT_SENT =
  "No signal: your last change was not sent. Do it again: it waits on this phone and is sent when the signal is back.";

function timeText(date: Date) {
  return date.toLocaleTimeString("en-US", { hour: "numeric", minute: "2-digit", timeZone: STORE_TIME_ZONE });
}

async function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  try {
    await navigator.serviceWorker.register("/driver-sw.js", { scope: "/driver" });
    const registration = await navigator.serviceWorker.ready;
    // The files this first load fetched before the worker was there: kept for the next open offline.
    const urls = [location.pathname, ...performance.getEntriesByType("resource").map((entry) => entry.name)];
    registration.active?.postMessage({ type: "keep-shell", urls });
  } catch {
    // No worker (a private window, an old browser): the page works online as before.
  }
}

function tellWorker(message: unknown) {
  navigator.serviceWorker?.controller?.postMessage(message);
}

export function DriverPhone({
  run,
  csrf,
  name,
  loadedAt,
  message,
  children,
}: {
  run: DriverRun;
  csrf: string;
  name: string;
  /** The server's time when it rendered this run (an older copy may come from the phone). */
  loadedAt: string;
  message: ActionMessage | null;
  /** What the run screen shows between the finished stops and tomorrow's (the cash, the manifests). */
  children?: ReactNode;
}) {
  const [base, setBase] = useState<SavedRun>({ run, csrf, name, savedAt: loadedAt });
  const [queue, setQueue] = useState<WaitingAction[]>([]);
  const [meta, setMeta] = useState<PhoneMeta>({ lastSentAt: null, refusals: [] });
  const [online, setOnline] = useState(true);
  const [noSignal, setNoSignal] = useState(false);
  const [sending, setSending] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const current = useRef({ base, queue, meta, syncing: false });
  current.current = { ...current.current, base, queue, meta };

  const mine = useMemo(() => queue.filter((action) => action.driver === base.name), [queue, base.name]);
  const others = queue.length - mine.length;

  const sync = useCallback(async () => {
    const state = current.current;
    if (state.syncing || !navigator.onLine) return;
    state.syncing = true;
    setSending(true);
    let csrfRetried = false;
    try {
      for (;;) {
        const { base: now, queue: waiting, meta: read } = current.current;
        const pending = waiting.filter((action) => action.driver === now.name);
        if (pending.length === 0) break;
        const batch = nextBatch(pending);
        const body = new URLSearchParams({
          csrf: now.csrf,
          [SYNC_FIELD]: JSON.stringify({
            actions: batch.map(({ key, phoneTime, action }) => ({ key, phoneTime, action })),
            waiting: pending.length - batch.length,
          }),
        });
        const response = await fetch("/driver/sync", {
          method: "POST",
          credentials: "same-origin",
          headers: { Accept: "application/json" },
          body,
        });
        setNoSignal(false);
        if (response.status === 403 && !csrfRetried) {
          // A new session since the run was saved: its token comes with the run.
          csrfRetried = true;
          const fresh = await fetch("/driver/run.json", {
            credentials: "same-origin",
            headers: { Accept: "application/json" },
          });
          if (!fresh.ok) throw new Error(`run ${fresh.status}`);
          const body = (await fresh.json()) as SavedRun & { syncedAt: string };
          const saved = { run: body.run, csrf: body.csrf, name: body.name, savedAt: body.syncedAt };
          await saveRun(saved);
          current.current.base = saved;
          setBase(saved);
          continue;
        }
        if (response.status === 401 || response.status === 403) {
          setNotice(
            `Signed out: sign in again to send your ${pending.length} waiting changes. They stay on this phone.`,
          );
          break;
        }
        if (!response.ok) {
          setNotice(
            "The shop could not take your changes just now. They stay on this phone and are sent again.",
          );
          break;
        }
        const answer = (await response.json()) as SyncAnswer;
        const sent = new Set(batch.map((action) => action.key));
        const refusals: Refusal[] = answer.outcomes.flatMap((outcome) =>
          outcome.outcome === "refused"
            ? [
                {
                  key: outcome.key,
                  customerName: batch.find((action) => action.key === outcome.key)?.customerName ?? "A stop",
                  message: outcome.message,
                },
              ]
            : [],
        );
        const nextMeta = { lastSentAt: answer.syncedAt, refusals: [...read.refusals, ...refusals] };
        const saved = { run: answer.run, csrf: answer.csrf, name: answer.name, savedAt: answer.syncedAt };
        await removeFromQueue([...sent]);
        await saveMeta(nextMeta);
        await saveRun(saved);
        const left = current.current.queue.filter((action) => !sent.has(action.key));
        current.current = { ...current.current, base: saved, queue: left, meta: nextMeta };
        setQueue(left);
        setMeta(nextMeta);
        setBase(saved);
      }
    } catch {
      // No answer: the signal is not really back. Everything stays queued.
      setNoSignal(true);
    } finally {
      current.current.syncing = false;
      setSending(false);
    }
  }, []);

  useEffect(() => {
    // The worker and the files it keeps wait until the page has loaded and settled.
    const register = () => window.setTimeout(() => void registerWorker(), 1500);
    if (document.readyState === "complete") register();
    else window.addEventListener("load", register, { once: true });
    const url = new URL(location.href);
    if (url.searchParams.has("not-sent")) {
      setNoSignal(true);
      setNotice(NOT_SENT);
      history.replaceState(null, "", "/driver");
    }
    const update = () => {
      setOnline(navigator.onLine);
      if (navigator.onLine) {
        setNoSignal(false);
        void sync();
      }
    };
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    setOnline(navigator.onLine);
    let cancelled = false;
    loadPhone()
      .then(async ({ saved, queue: stored, meta: storedMeta }) => {
        if (cancelled) return;
        const served = current.current.base;
        // The page may be the phone's own copy (opened without signal): a newer saved run wins.
        const newer = saved && saved.name === served.name && saved.savedAt > served.savedAt ? saved : null;
        if (newer) setBase(newer);
        else await saveRun(served);
        current.current = { ...current.current, base: newer ?? served, queue: stored, meta: storedMeta };
        // Nothing kept that changes the page: no second render of the whole run.
        if (stored.length > 0) setQueue(stored);
        if (storedMeta.lastSentAt || storedMeta.refusals.length > 0) setMeta(storedMeta);
        setReady(true);
        if (navigator.onLine) void sync();
      })
      .catch(() => setReady(true));
    return () => {
      cancelled = true;
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, [sync]);

  // Only the ID photos of open stops stay on the phone.
  useEffect(() => {
    const ids = [...base.run.open, ...base.run.unassigned].flatMap((stop) =>
      stop.idPhotoId ? [stop.idPhotoId] : [],
    );
    tellWorker({ type: "keep-photos", ids });
  }, [base]);

  const enqueue = useCallback(
    async (action: DriverAction) => {
      const { base: now, queue: waiting } = current.current;
      const shown = runWithPending(
        now.run,
        waiting.filter((entry) => entry.driver === now.name),
      );
      const entry: WaitingAction = {
        key: crypto.randomUUID(),
        phoneTime: new Date().toISOString(),
        action,
        customerName: actionSubject(shown, action),
        driver: now.name,
      };
      await addToQueue(entry);
      const next = [...current.current.queue, entry];
      current.current = { ...current.current, queue: next };
      setQueue(next);
      if (navigator.onLine) void sync();
    },
    [sync],
  );

  const queueAction = useCallback((action: DriverAction) => void enqueue(action), [enqueue]);

  // Without signal, or while changes wait, every action goes through the queue (in order); with
  // signal and nothing waiting, the forms post as they do without script.
  const queueing = !online || noSignal || mine.length > 0;

  function onSubmitCapture(event: FormEvent<HTMLDivElement>) {
    const form = event.target as HTMLFormElement;
    if (form.getAttribute("action") === "/admin/logout") {
      event.preventDefault();
      if (mine.length > 0) {
        setNotice(`Your ${mine.length} waiting changes are not sent yet: sign out once they are.`);
        return;
      }
      tellWorker({ type: "clear" });
      void clearPhone()
        .catch(() => undefined)
        .then(() => form.submit());
      return;
    }
    if (!queueing) return;
    const action = actionFromForm(new FormData(form));
    if (action === null) return;
    event.preventDefault();
    setNotice(null);
    form.closest("details")?.removeAttribute("open");
    void enqueue(action);
  }

  const dismiss = useCallback(async (key: string) => {
    const read = current.current.meta;
    const next = { ...read, refusals: read.refusals.filter((refusal) => refusal.key !== key) };
    setMeta(next);
    current.current.meta = next;
    await saveMeta(next);
  }, []);

  const shown = useMemo(() => runWithPending(base.run, mine), [base.run, mine]);
  const banner = syncBannerText({
    online: online && !noSignal,
    waiting: mine.length,
    sending,
    lastSentAt: meta.lastSentAt ? new Date(meta.lastSentAt) : null,
    formatTime: timeText,
  });
  const signal = online && !noSignal;
  const status: ReactNode = useMemo(
    () => (
      <div className="space-y-3">
        {banner ? (
          <p
            role="status"
            className={`rounded-lg border-2 px-3 py-2 font-bold text-lg ${signal ? "border-primary bg-secondary" : "border-foreground bg-honey-100"}`}
          >
            {banner}
          </p>
        ) : null}
        {others > 0 ? (
          <p className="rounded-lg border-2 border-foreground bg-card px-3 py-2">
            This phone also holds {others} {others === 1 ? "change" : "changes"} of another account, sent when
            it signs in again.
          </p>
        ) : null}
        {notice ? (
          <p
            role="alert"
            className="rounded-lg border-2 border-destructive bg-card px-3 py-2 font-semibold text-destructive"
          >
            {notice}
          </p>
        ) : null}
        {meta.refusals.length > 0 ? (
          <section
            aria-labelledby="not-applied"
            className="space-y-2 rounded-xl border-2 border-destructive bg-card p-3"
          >
            <h2 id="not-applied" className="font-bold text-destructive text-xl">
              Not applied
            </h2>
            <ul className="space-y-2">
              {meta.refusals.map((refusal) => (
                <li key={refusal.key} className="flex items-start justify-between gap-3">
                  <p className="min-w-0 [overflow-wrap:anywhere]">
                    <strong>{refusal.customerName}:</strong> {refusal.message}
                  </p>
                  <button
                    type="button"
                    onClick={() => void dismiss(refusal.key)}
                    className="inline-flex min-h-12 min-w-12 shrink-0 items-center justify-center rounded-lg border-2 border-foreground bg-card px-3 font-semibold text-lg"
                    aria-label={`OK, read: ${refusal.customerName}`}
                  >
                    OK
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    ),
    [banner, signal, others, notice, meta.refusals, dismiss],
  );

  return (
    <DriverQueueContext.Provider value={queueing ? queueAction : null}>
      {/* Submit events of every form in the run bubble here: queued while there is no signal. */}
      <div onSubmitCapture={onSubmitCapture} data-ready={ready ? "true" : undefined} data-testid="phone-sync">
        <RunScreen run={shown} csrf={base.csrf} name={base.name} message={message} status={status}>
          {children}
        </RunScreen>
      </div>
    </DriverQueueContext.Provider>
  );
}
