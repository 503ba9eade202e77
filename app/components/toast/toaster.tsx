import { lazy, Suspense, useEffect, useSyncExternalStore } from "react";
import { onFirstInteraction } from "#app/utils/first-interaction.ts";
import type { Toast } from "#app/utils/toast.ts";
import { subscribeToToastRequests, toast, toastRequested } from "#app/utils/toast-client.ts";

const loadSonner = () => import("./sonner-toaster.tsx");

const SonnerToaster = lazy(loadSonner);

/**
 * Mounts sonner once a toast is asked for. `pending` is a toast carried across a redirect (a
 * cookie read by the root loader).
 */
export function Toaster({ pending }: { pending: Toast | null }) {
  const requested = useSyncExternalStore(subscribeToToastRequests, toastRequested, () => false);

  useEffect(
    () =>
      onFirstInteraction(() => {
        loadSonner().catch(() => {});
      }),
    [],
  );

  useEffect(() => {
    if (!pending) return;
    // Deferred so the toast survives the navigation that delivered it.
    const timer = setTimeout(
      () => toast[pending.type](pending.title, { id: pending.id, description: pending.description }),
      0,
    );
    return () => clearTimeout(timer);
  }, [pending]);

  return requested ? (
    <Suspense fallback={null}>
      <SonnerToaster />
    </Suspense>
  ) : null;
}
