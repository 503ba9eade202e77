import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { auditEvents } from "#app/db/schema.ts";
import { COMMAND_LINE_ORIGIN } from "#app/features/audit/audit.server.ts";
import { generateIdPhotoKey, IdPhotoKeyring } from "#app/features/keyring/id-photo-crypto.server.ts";
import { describeEachDatabase } from "#tests/db.ts";
import { confirmKeyBackup, keyBackupReminder, keyBackupWarning } from "./id-photo-key-backup.server.ts";

const OWNER = {
  actor: { userId: null, email: "owner@capitalgrown.test", role: "owner" as const },
  origin: COMMAND_LINE_ORIGIN,
};

describeEachDatabase("the generated ID photo key's backup reminder", (database) => {
  it("stands for a generated key until an owner confirms that key, audited; a key from ID_PHOTO_KEY needs none", async () => {
    const { db } = database();
    const generated = new IdPhotoKeyring(generateIdPhotoKey(), [], { source: "generated" });
    const reminder = await keyBackupReminder(generated, "/srv/shop", db);
    expect(reminder).toEqual({ keyId: generated.current.id, file: "/srv/shop/keys/id-photo.key" });
    expect(keyBackupWarning(reminder as NonNullable<typeof reminder>)).toContain(
      `The ID photo key ${generated.current.id} was generated on this server (/srv/shop/keys/id-photo.key) and no owner has confirmed it is backed up`,
    );
    // The same file read at a later start.
    const fromFile = new IdPhotoKeyring(generated.current, [], { source: "key file" });
    expect(await keyBackupReminder(fromFile, "/srv/shop", db)).not.toBeNull();
    expect(await keyBackupReminder(new IdPhotoKeyring(generateIdPhotoKey()), "/srv/shop", db)).toBeNull();

    await confirmKeyBackup(generated.current.id, { audit: OWNER, now: new Date("2026-11-27T09:00:00Z") });
    expect(await keyBackupReminder(fromFile, "/srv/shop", db)).toBeNull();
    const [event] = await db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "settings.id_photo_key_backed_up"));
    expect(event).toMatchObject({
      actorEmail: "owner@capitalgrown.test",
      targetId: "id_photo_key_backed_up",
      details: { from: null, to: { keyId: generated.current.id, confirmedAt: "2026-11-27T09:00:00.000Z" } },
    });

    // A new generated key (a rotation without ID_PHOTO_KEY) asks again.
    const rotated = new IdPhotoKeyring(generateIdPhotoKey(), [generated.current], { source: "key file" });
    expect(await keyBackupReminder(rotated, "/srv/shop", db)).toMatchObject({ keyId: rotated.current.id });
  });
});
