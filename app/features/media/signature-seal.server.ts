/**
 * The sealing of customers' signatures that key rotation needs too (record 051): their additional
 * data, opening one, and sealing every one again under the current key after a rotation.
 */
import { and, eq, ne } from "drizzle-orm";
import type { Executor } from "#app/db/client.server.ts";
import { deliveryProofs } from "#app/db/schema.ts";
import {
  decryptIdPhotoBytes,
  encryptIdPhotoBytes,
  type IdPhotoKeyring,
  idPhotoKeyring,
} from "#app/features/keyring/id-photo-crypto.server.ts";

export type SealedSignature = {
  signatureKeyId: string;
  signatureNonce: Uint8Array;
  signatureBytes: Uint8Array;
};

/** The order's id in the additional data: a signature moved to another order does not open. */
export const signatureLabel = (orderId: string) => `delivery-signature:${orderId}`;

export function openDeliverySignature(
  orderId: string,
  stored: SealedSignature,
  keyring: IdPhotoKeyring = idPhotoKeyring(),
): Uint8Array {
  const key = keyring.find(stored.signatureKeyId);
  if (!key)
    throw new Error(
      `The signature of order ${orderId} is sealed with key ${stored.signatureKeyId}, which this instance does not have`,
    );
  return decryptIdPhotoBytes(key, signatureLabel(orderId), {
    nonce: stored.signatureNonce,
    bytes: stored.signatureBytes,
  });
}

/**
 * Seals again under the key ring's current key every signature sealed under an older key this
 * instance holds (a rotation, record 014), so retiring the old key loses none. Returns how many
 * were moved and how many are under keys this instance does not have.
 */
export async function resealDeliverySignatures(
  executor: Executor,
  keyring: IdPhotoKeyring,
): Promise<{ resealed: number; leftUnreadable: number }> {
  const target = keyring.current;
  const stale = await executor
    .select()
    .from(deliveryProofs)
    .where(ne(deliveryProofs.signatureKeyId, target.id));
  let resealed = 0;
  let leftUnreadable = 0;
  for (const row of stale) {
    if (!keyring.find(row.signatureKeyId)) {
      leftUnreadable++;
      continue;
    }
    const sealed = encryptIdPhotoBytes(
      target,
      signatureLabel(row.orderId),
      openDeliverySignature(row.orderId, row, keyring),
    );
    const moved = await executor
      .update(deliveryProofs)
      .set({ signatureKeyId: sealed.keyId, signatureNonce: sealed.nonce, signatureBytes: sealed.bytes })
      .where(
        and(eq(deliveryProofs.orderId, row.orderId), eq(deliveryProofs.signatureKeyId, row.signatureKeyId)),
      )
      .returning({ orderId: deliveryProofs.orderId });
    resealed += moved.length;
  }
  return { resealed, leftUnreadable };
}
