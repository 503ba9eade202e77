import { useEffect, useState } from "react";
import { useRevalidator } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { toast } from "#app/utils/toast-client.ts";
import { addPasskey, ceremonyCancelled, passkeysSupported } from "./webauthn.ts";

/** 'Add a passkey' on the account page; hidden where the browser has no passkeys (and without JavaScript). */
export function AddPasskey({ csrf }: { csrf: string }) {
  const [supported, setSupported] = useState(false);
  const [busy, setBusy] = useState(false);
  const revalidator = useRevalidator();
  useEffect(() => setSupported(passkeysSupported()), []);
  if (!supported) return null;
  return (
    <Button
      type="button"
      variant="outline"
      className="mt-3 min-h-11"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await addPasskey(csrf);
          toast.success("Passkey added", { description: "Next time, sign in with it instead of a code." });
          await revalidator.revalidate();
        } catch (error) {
          if (!ceremonyCancelled(error)) {
            toast.error(error instanceof Error ? error.message : "The passkey was not added.");
          }
        } finally {
          setBusy(false);
        }
      }}
    >
      Add a passkey
    </Button>
  );
}
