import { useEffect } from "react";
import { useRevalidator } from "react-router";

/**
 * New orders show up without a manual refresh: the list reloads every 15 s while the tab is
 * visible (`when`: "hidden" for the new-order alert, which keeps looking in a hidden tab).
 */
export function usePolling(intervalMs = 15_000, when: DocumentVisibilityState = "visible") {
  const revalidator = useRevalidator();
  useEffect(() => {
    const id = window.setInterval(() => {
      if (document.visibilityState === when && revalidator.state === "idle") void revalidator.revalidate();
    }, intervalMs);
    return () => window.clearInterval(id);
  }, [revalidator, intervalMs, when]);
  return revalidator;
}
