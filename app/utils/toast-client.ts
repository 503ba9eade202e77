/**
 * The shop's toasts (K-9), shown by sonner. Sonner is loaded on the first toast, or warmed on
 * the shopper's first interaction, so it stays out of every page's first-load JavaScript: most
 * visits show no toast before the shopper taps something.
 */

export type ToastKind = "success" | "error" | "info";
export type ToastOptions = { description?: string; id?: string };
type ToastRequest = { kind: ToastKind; title: string; options: ToastOptions };

type SonnerToast = typeof import("sonner").toast;

let sonnerToast: SonnerToast | null = null;
let queued: ToastRequest[] = [];
let requested = false;
const listeners = new Set<() => void>();

function show(kind: ToastKind, title: string, options: ToastOptions = {}) {
  if (sonnerToast) {
    sonnerToast[kind](title, options);
    return;
  }
  queued.push({ kind, title, options });
  if (!requested) {
    requested = true;
    for (const listener of listeners) listener();
  }
}

export const toast = {
  success: (title: string, options?: ToastOptions) => show("success", title, options),
  error: (title: string, options?: ToastOptions) => show("error", title, options),
  info: (title: string, options?: ToastOptions) => show("info", title, options),
  dismiss() {
    queued = [];
    sonnerToast?.dismiss();
  },
};

/** How long a toast carried in a navigation's state stays meant for its page (not for a later reload). */
export const CARRIED_TOAST_MS = 10_000;

/**
 * The navigation state that carries `message` to the page a client navigation opens
 * (`navigate(to, { state: carryToast(message) })`): the toaster shows it there.
 */
export function carryToast(message: { type?: ToastKind; title: string; description?: string }) {
  return { toast: { ...message, raisedAt: Date.now() } };
}

/** For the toaster: whether a toast has been asked for, so sonner must be mounted. */
export function subscribeToToastRequests(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function toastRequested() {
  return requested;
}

/** Called once sonner's toaster is mounted (and listening): shows what was asked for meanwhile. */
export function sonnerReady(toastApi: SonnerToast) {
  sonnerToast = toastApi;
  const waiting = queued;
  queued = [];
  for (const { kind, title, options } of waiting) toastApi[kind](title, options);
}
