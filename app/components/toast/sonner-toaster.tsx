import { useEffect } from "react";
import { Toaster, toast } from "sonner";
import { sonnerReady } from "#app/utils/toast-client.ts";

/** One toast at a time (K-9), bottom-centre above the mobile bar. */
export default function SonnerToaster() {
  // Runs after sonner's own effects (children first), so its toaster is already listening.
  useEffect(() => {
    sonnerReady(toast);
  }, []);
  return (
    <Toaster
      position="bottom-center"
      visibleToasts={1}
      offset={{ bottom: 80 }}
      mobileOffset={{ bottom: 80 }}
      toastOptions={{ className: "font-sans" }}
    />
  );
}
