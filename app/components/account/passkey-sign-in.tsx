import { Button } from "#app/components/ui/button.tsx";
import { usePasskeyCeremony } from "./use-passkey-ceremony.ts";
import { signInWithPasskey } from "./webauthn.ts";

/** 'Sign in with a passkey' below the e-mail form, where the browser has passkeys. */
export function PasskeySignIn() {
  const passkey = usePasskeyCeremony({
    ceremony: async () => {
      await signInWithPasskey();
      // A full load: the session cookie is new, and the account page reads it.
      window.location.assign("/account");
    },
    failure: "That passkey did not work.",
    leavesPage: true,
  });
  if (!passkey.supported) return null;
  return (
    <div className="mt-6 border-t border-border pt-6">
      <Button
        type="button"
        variant="outline"
        size="lg"
        className="w-full"
        disabled={passkey.busy}
        onClick={passkey.run}
      >
        Sign in with a passkey
      </Button>
    </div>
  );
}
