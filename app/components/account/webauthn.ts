/**
 * The browser's half of a passkey ceremony (record 053): the server's JSON options turned into
 * `navigator.credentials` arguments and the answer back into JSON (binary fields as base64url).
 * Loaded only by the account pages, never by the storefront's shared chunk.
 */
export const PASSKEYS_PATH = "/account/passkeys";

function fromB64url(value: string): ArrayBuffer {
  const base64 = value
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(value.length / 4) * 4, "=");
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes.buffer;
}

function toB64url(buffer: ArrayBuffer | null): string {
  if (!buffer) return "";
  let binary = "";
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function passkeysSupported() {
  return typeof window !== "undefined" && typeof window.PublicKeyCredential === "function";
}

/** Every post of the shop is a form (the server refuses other bodies): the fields urlencoded. */
async function post(body: Record<string, string>, csrf?: string) {
  const response = await fetch(PASSKEYS_PATH, {
    method: "POST",
    headers: csrf ? { "X-CSRF-Token": csrf } : {},
    body: new URLSearchParams(body),
  });
  const answer = (await response.json().catch(() => ({}))) as {
    ok?: boolean;
    error?: string;
    options?: ServerOptions;
  };
  if (!response.ok || !answer.ok) throw new Error(answer.error ?? "Something went wrong. Please try again.");
  return { options: answer.options as ServerOptions };
}

/** The server's options: the binary fields in base64url, the rest as the browser takes them. */
type ServerOptions = {
  challenge: string;
  user: { id: string; name: string; displayName: string };
  excludeCredentials: { id: string; type: "public-key" }[];
  [option: string]: unknown;
};

/** Makes a passkey for the signed-in customer and hands it to the shop. */
export async function addPasskey(csrf: string) {
  const { options } = await post({ step: "options" }, csrf);
  const credential = (await navigator.credentials.create({
    publicKey: {
      ...options,
      challenge: fromB64url(options.challenge),
      user: { ...options.user, id: fromB64url(options.user.id) },
      excludeCredentials: options.excludeCredentials.map((entry) => ({ ...entry, id: fromB64url(entry.id) })),
    } as unknown as PublicKeyCredentialCreationOptions,
  })) as PublicKeyCredential | null;
  if (!credential) throw new Error("No passkey was made.");
  const response = credential.response as AuthenticatorAttestationResponse;
  await post(
    {
      step: "register",
      id: credential.id,
      clientDataJSON: toB64url(response.clientDataJSON),
      authenticatorData: toB64url(response.getAuthenticatorData()),
      publicKey: toB64url(response.getPublicKey()),
      transports: (response.getTransports?.() ?? []).join(","),
    },
    csrf,
  );
}

/** Signs in with a passkey this device holds for the shop. */
export async function signInWithPasskey() {
  const { options } = await post({ step: "sign-in-options" });
  const credential = (await navigator.credentials.get({
    publicKey: {
      ...options,
      challenge: fromB64url(options.challenge),
    } as unknown as PublicKeyCredentialRequestOptions,
  })) as PublicKeyCredential | null;
  if (!credential) throw new Error("No passkey was chosen.");
  const response = credential.response as AuthenticatorAssertionResponse;
  await post({
    step: "sign-in",
    id: credential.id,
    clientDataJSON: toB64url(response.clientDataJSON),
    authenticatorData: toB64url(response.authenticatorData),
    signature: toB64url(response.signature),
  });
}
