import { useEffect } from "react";
import { Toaster as Sonner, toast as showToast } from "sonner";
import type { Toast } from "#app/utils/toast.ts";

/** One toast at a time (spec §9), bottom-centre above the mobile bar. */
export function Toaster({ pending }: { pending: Toast | null }) {
  useEffect(() => {
    if (!pending) return;
    const show =
      pending.type === "error"
        ? showToast.error
        : pending.type === "info"
          ? showToast.info
          : showToast.success;
    // Deferred so the toast survives the navigation that delivered it.
    const timer = setTimeout(
      () => show(pending.title, { id: pending.id, description: pending.description }),
      0,
    );
    return () => clearTimeout(timer);
  }, [pending]);
  return (
    <Sonner
      position="bottom-center"
      visibleToasts={1}
      offset={{ bottom: 80 }}
      mobileOffset={{ bottom: 80 }}
      toastOptions={{ className: "font-sans" }}
    />
  );
}
