import { useEffect, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { toast } from "#app/utils/toast-client.ts";
import { ceremonyCancelled, passkeysSupported, signInWithPasskey } from "./webauthn.ts";

/** 'Sign in with a passkey' below the e-mail form, where the browser has passkeys. */
export function PasskeySignIn() {
  const [supported, setSupported] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => setSupported(passkeysSupported()), []);
  if (!supported) return null;
  return (
    <div className="mt-6 border-t border-border pt-6">
      <Button
        type="button"
        variant="outline"
        size="lg"
        className="w-full"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await signInWithPasskey();
            // A full load: the session cookie is new, and the account page reads it.
            window.location.assign("/account");
          } catch (error) {
            if (!ceremonyCancelled(error)) {
              toast.error(error instanceof Error ? error.message : "That passkey did not work.");
            }
            setBusy(false);
          }
        }}
      >
        Sign in with a passkey
      </Button>
    </div>
  );
}
