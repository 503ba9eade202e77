import { useEffect, useSyncExternalStore } from "react";
import { Toaster, toast } from "sonner";
import { sonnerReady } from "#app/utils/toast-client.ts";

const PHONE = "(max-width: 639px)";

function subscribeToWidth(listener: () => void) {
  const query = window.matchMedia(PHONE);
  query.addEventListener("change", listener);
  return () => query.removeEventListener("change", listener);
}

/**
 * One toast at a time (K-9). On a phone it sits at the top, over the header: the bottom of a
 * phone's screen is where a page's own buttons are (the bottom bar, 'Yes, cancel my order', 'Place
 * Order'). Wider, bottom-centre.
 */
export default function SonnerToaster() {
  const phone = useSyncExternalStore(
    subscribeToWidth,
    () => window.matchMedia(PHONE).matches,
    () => false,
  );
  // Runs after sonner's own effects (children first), so its toaster is already listening.
  useEffect(() => {
    sonnerReady(toast);
  }, []);
  return (
    <Toaster
      position={phone ? "top-center" : "bottom-center"}
      visibleToasts={1}
      offset={{ bottom: 80 }}
      mobileOffset={phone ? { top: 8 } : { bottom: 80 }}
      toastOptions={{ className: "font-sans" }}
    />
  );
}
