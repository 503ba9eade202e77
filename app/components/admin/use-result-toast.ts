import { useEffect, useEffectEvent } from "react";
import { toast } from "#app/utils/toast-client.ts";

/** An admin post's answer as a toast: success or error, with its title and description. */
export type ToastResult = { ok: boolean; title: string; description: string };

/**
 * Toasts a fetcher's answer as soon as it arrives, then calls `settled`: the answer may come while
 * the list reloads and drops the button that posted it.
 */
export function useResultToast(result: ToastResult | undefined, settled?: () => void) {
  const onSettled = useEffectEvent(() => settled?.());
  useEffect(() => {
    if (!result) return;
    if (result.ok) toast.success(result.title, { description: result.description });
    else toast.error(result.title, { description: result.description });
    onSettled();
  }, [result]);
}
