import { useRevalidator } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { toast } from "#app/utils/toast-client.ts";
import { usePasskeyCeremony } from "./use-passkey-ceremony.ts";
import { addPasskey } from "./webauthn.ts";

/** 'Add a passkey' on the account page; hidden where the browser has no passkeys (and without JavaScript). */
export function AddPasskey({ csrf }: { csrf: string }) {
  const revalidator = useRevalidator();
  const passkey = usePasskeyCeremony({
    ceremony: async () => {
      await addPasskey(csrf);
      toast.success("Passkey added", { description: "Next time, sign in with it instead of a code." });
      await revalidator.revalidate();
    },
    failure: "The passkey was not added.",
  });
  if (!passkey.supported) return null;
  return (
    <Button
      type="button"
      variant="outline"
      className="mt-3 min-h-11"
      disabled={passkey.busy}
      onClick={passkey.run}
    >
      Add a passkey
    </Button>
  );
}
