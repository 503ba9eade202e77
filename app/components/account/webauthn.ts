/**
 * The browser's half of a passkey ceremony (record 053), by `@simplewebauthn/browser`: the
 * server's JSON options go to `startRegistration`/`startAuthentication`, their JSON answer back to
 * the server. Loaded only by the account pages, never by the storefront's shared chunk.
 */
import {
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
  WebAuthnError,
} from "@simplewebauthn/browser";

export const PASSKEYS_PATH = "/account/passkeys";

export function passkeysSupported() {
  return typeof window !== "undefined" && browserSupportsWebAuthn();
}

/** Every post of the shop is a form (the server refuses other bodies): the fields urlencoded. */
async function post<Options>(body: Record<string, string>, csrf?: string) {
  const response = await fetch(PASSKEYS_PATH, {
    method: "POST",
    headers: csrf ? { "X-CSRF-Token": csrf } : {},
    body: new URLSearchParams(body),
  });
  const answer = (await response.json().catch(() => ({}))) as {
    ok?: boolean;
    error?: string;
    options?: Options;
  };
  if (!response.ok || !answer.ok) throw new Error(answer.error ?? "Something went wrong. Please try again.");
  return answer.options as Options;
}

/**
 * Whether the customer closed the browser's passkey prompt (or it timed out): nothing to say then.
 * The library passes the browser's DOMException on inside a WebAuthnError of the same name.
 */
export function ceremonyCancelled(error: unknown) {
  return (
    (error instanceof WebAuthnError || error instanceof DOMException) && error.name === "NotAllowedError"
  );
}

/** Makes a passkey for the signed-in customer and hands it to the shop. */
export async function addPasskey(csrf: string) {
  const optionsJSON = await post<PublicKeyCredentialCreationOptionsJSON>({ step: "options" }, csrf);
  const credential = await startRegistration({ optionsJSON });
  await post({ step: "register", response: JSON.stringify(credential) }, csrf);
}

/** Signs in with a passkey this device holds for the shop. */
export async function signInWithPasskey() {
  const optionsJSON = await post<PublicKeyCredentialRequestOptionsJSON>({ step: "sign-in-options" });
  const credential = await startAuthentication({ optionsJSON });
  await post({ step: "sign-in", response: JSON.stringify(credential) });
}
