import { useEffect } from "react";
import { toast } from "#app/utils/toast-client.ts";

/** K-8: a failed load shows an error toast (and the page shows an empty grid). */
export function useLoadErrorToast(failed: boolean, description: string) {
  useEffect(() => {
    if (failed) toast.error("Error", { description });
  }, [failed, description]);
}

export function LoadErrorNotice({ failed, text }: { failed: boolean; text: string }) {
  if (!failed) return null;
  return (
    <p
      role="alert"
      className="rounded-md border border-destructive/30 bg-destructive/5 px-4 py-3 text-sm text-destructive"
    >
      {text}
    </p>
  );
}
