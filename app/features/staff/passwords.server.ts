import { hash, verify } from "@node-rs/argon2";

// argon2id with OWASP's minimum memory cost (19 MiB, 2 passes), record 006.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string) {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string) {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash of a random password, checked when the e-mail is unknown so timing gives nothing away. */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash() {
  decoyHash ??= hashPassword(crypto.randomUUID());
  return decoyHash;
}
