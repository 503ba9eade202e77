/**
 * Customers' signatures at the door (P-32, record 051), sealed like ID photos: AES-256-GCM under
 * the ID-photo key ring's current key (as the database records it), the order's id in the
 * additional data, so a signature moved to another order does not open.
 */
import type { Transaction } from "#app/db/client.server.ts";
import { encryptIdPhotoBytes, idPhotoKeyring } from "#app/features/keyring/id-photo-crypto.server.ts";
import { currentWriteKey } from "./id-photo-keys.server.ts";
import { type SealedSignature, signatureLabel } from "./signature-seal.server.ts";

export { openDeliverySignature } from "./signature-seal.server.ts";

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const DATA_URL_PREFIX = "data:image/png;base64,";

/** The PNG bytes of a `data:image/png;base64,…` URL, or null when it is not a PNG. */
export function signaturePngBytes(dataUrl: string): Uint8Array | null {
  if (!dataUrl.startsWith(DATA_URL_PREFIX)) return null;
  const base64 = dataUrl.slice(DATA_URL_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return null;
  const bytes = new Uint8Array(Buffer.from(base64, "base64"));
  if (bytes.byteLength < 64 || PNG_MAGIC.some((byte, index) => bytes[index] !== byte)) return null;
  return bytes;
}

export async function sealDeliverySignature(
  tx: Transaction,
  orderId: string,
  png: Uint8Array,
): Promise<SealedSignature> {
  const key = await currentWriteKey(tx, idPhotoKeyring());
  const sealed = encryptIdPhotoBytes(key, signatureLabel(orderId), png);
  return { signatureKeyId: sealed.keyId, signatureNonce: sealed.nonce, signatureBytes: sealed.bytes };
}
