import { useEffect, useState } from "react";
import { toast } from "#app/utils/toast-client.ts";
import { ceremonyCancelled, passkeysSupported } from "./webauthn.ts";

/**
 * A passkey ceremony behind a button: `supported` stays false until the page hydrates where the
 * browser has passkeys (the button is hidden without JavaScript), `busy` while `ceremony` runs, and
 * a failure as a toast (`failure` when it says nothing of its own; none when the customer closed
 * the browser's prompt). `leavesPage`: a page load follows success, so the button stays busy.
 */
export function usePasskeyCeremony({
  ceremony,
  failure,
  leavesPage = false,
}: {
  ceremony: () => Promise<void>;
  failure: string;
  leavesPage?: boolean;
}) {
  const [supported, setSupported] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => setSupported(passkeysSupported()), []);
  const run = async () => {
    setBusy(true);
    try {
      await ceremony();
      if (leavesPage) return;
    } catch (error) {
      if (!ceremonyCancelled(error)) toast.error(error instanceof Error ? error.message : failure);
    }
    setBusy(false);
  };
  return { supported, busy, run };
}
