import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useSyncExternalStore } from "react";
import { type Location, useLocation } from "react-router";
import { onFirstInteraction } from "#app/utils/first-interaction.ts";
import type { Toast } from "#app/utils/toast.ts";
import {
  CARRIED_TOAST_MS,
  subscribeToToastRequests,
  toast,
  toastRequested,
} from "#app/utils/toast-client.ts";

const loadSonner = () => import("./sonner-toaster.tsx");

const SonnerToaster = lazy(loadSonner);

/** A toast a client navigation carries for the page it opens (`navigate(to, { state: { toast } })`). */
function toastOfState(location: Location): Toast | null {
  const carried = (location.state as { toast?: { raisedAt?: unknown } } | null)?.toast;
  if (!carried || typeof carried.raisedAt !== "number") return null;
  // History keeps a page's state through a reload: a toast is for the arrival, not the reload.
  if (Date.now() - carried.raisedAt > CARRIED_TOAST_MS) return null;
  // Read by hand: the schema's zod stays out of every page's first-load JavaScript.
  const { type, title, description } = carried as { type?: unknown; title?: unknown; description?: unknown };
  if (typeof title !== "string") return null;
  return {
    id: `${location.key}-state`,
    type: type === "error" || type === "info" ? type : "success",
    title,
    description: typeof description === "string" ? description : undefined,
  };
}

/**
 * Mounts sonner once a toast is asked for. A toast belongs to the page that raised it: every
 * navigation clears the last page's toasts, then shows the ones meant for the new page: `pending`,
 * carried across a redirect (a cookie read by the root loader) when it names this path, and one
 * carried in the navigation's state.
 */
export function Toaster({ pending }: { pending: Toast | null }) {
  const requested = useSyncExternalStore(subscribeToToastRequests, toastRequested, () => false);
  const location = useLocation();
  const page = useRef(location.key);
  const shown = useRef(new Set<string>());

  useEffect(
    () =>
      onFirstInteraction(() => {
        loadSonner().catch(() => {});
      }),
    [],
  );

  // A layout effect: it runs before the new page's own effects, which may raise its toasts.
  useLayoutEffect(() => {
    if (page.current === location.key) return;
    page.current = location.key;
    toast.dismiss();
  }, [location.key]);

  useEffect(() => {
    const meant = [
      pending && (!pending.path || pending.path === location.pathname) ? pending : null,
      toastOfState(location),
    ].filter((flash): flash is Toast => flash !== null && !shown.current.has(flash.id));
    if (meant.length === 0) return;
    // Deferred so the toast survives the navigation that delivered it.
    const timer = setTimeout(() => {
      for (const flash of meant) {
        shown.current.add(flash.id);
        toast[flash.type](flash.title, { id: flash.id, description: flash.description });
      }
    }, 0);
    return () => clearTimeout(timer);
  }, [pending, location]);

  return requested ? (
    <Suspense fallback={null}>
      <SonnerToaster />
    </Suspense>
  ) : null;
}
