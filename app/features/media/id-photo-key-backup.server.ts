/**
 * A shop whose ID photo key was generated on its server (`DATA_DIR/keys/id-photo.key`, when
 * ID_PHOTO_KEY is unset) loses every ID photo of every backup with that server's disk unless the key
 * is kept somewhere else. Until an owner confirms that it is backed up, every start logs a warning
 * and the admin dashboard shows owners a banner (docs/decisions/038-rolling-upgrades.md). The
 * confirmation names the key: a new generated key asks again.
 */
import path from "node:path";
import type { Executor } from "#app/db/client.server.ts";
import type { AuditBy } from "#app/features/audit/audit.server.ts";
import {
  CURRENT_KEY_FILE,
  type IdPhotoKeyring,
  keysFolder,
} from "#app/features/keyring/id-photo-crypto.server.ts";
import { readStoreSetting, saveStoreSetting } from "#app/features/settings/store-settings.server.ts";

export const KEY_BACKUP_SETTING = "id_photo_key_backed_up";

type Confirmation = { keyId: string; confirmedAt: string };

function confirmationOf(value: unknown): Confirmation | null {
  if (!value || typeof value !== "object") return null;
  const { keyId, confirmedAt } = value as Record<string, unknown>;
  return typeof keyId === "string" && typeof confirmedAt === "string" ? { keyId, confirmedAt } : null;
}

export type KeyBackupReminder = { keyId: string; file: string };

/**
 * The generated key no owner has confirmed as backed up, or null: a key given in ID_PHOTO_KEY is
 * the operator's own (kept wherever they keep the environment).
 */
export async function keyBackupReminder(
  keyring: IdPhotoKeyring,
  dataDir: string,
  executor?: Executor,
): Promise<KeyBackupReminder | null> {
  if (keyring.source === "ID_PHOTO_KEY") return null;
  const confirmed = confirmationOf(await readStoreSetting(KEY_BACKUP_SETTING, executor));
  if (confirmed?.keyId === keyring.current.id) return null;
  return { keyId: keyring.current.id, file: path.join(keysFolder(dataDir), CURRENT_KEY_FILE) };
}

/** An owner says the key `keyId` is backed up: stored, and recorded in the audit log. */
export async function confirmKeyBackup(keyId: string, options: { audit: AuditBy; now?: Date }) {
  const now = options.now ?? new Date();
  await saveStoreSetting<Confirmation>(
    KEY_BACKUP_SETTING,
    { keyId, confirmedAt: now.toISOString() },
    {
      action: "settings.id_photo_key_backed_up",
      before: async (tx) => confirmationOf(await readStoreSetting(KEY_BACKUP_SETTING, tx)),
      now,
      audit: options.audit,
    },
  );
}

/** The start-up warning while the reminder stands. */
export function keyBackupWarning(reminder: KeyBackupReminder) {
  return `The ID photo key ${reminder.keyId} was generated on this server (${reminder.file}) and no owner has confirmed it is backed up: copy it somewhere apart from this server and its backups (without it no backup's ID photos can be read), then confirm on the admin dashboard. Or set ID_PHOTO_KEY to it.`;
}
