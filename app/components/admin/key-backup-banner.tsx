import { Form, useNavigation } from "react-router";
import { CsrfInput } from "#app/components/admin/csrf.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Icon } from "#app/components/ui/icon.tsx";

export type KeyBackupBannerData = { keyId: string; file: string };

/**
 * For owners while the ID photo key generated on this server is not confirmed as backed up
 * (app/features/media/id-photo-key-backup.server.ts).
 */
export function KeyBackupBanner({ reminder, error }: { reminder: KeyBackupBannerData; error?: string }) {
  const busy = useNavigation().formData?.get("intent") === "confirm-key-backup";
  return (
    <Card
      className="mb-6 p-5 ring-2 ring-destructive"
      role="region"
      aria-labelledby="key-backup-heading"
      data-testid="key-backup-banner"
    >
      <div className="flex items-start gap-4">
        <span className="hidden size-11 shrink-0 items-center justify-center rounded-full bg-secondary text-destructive sm:flex [&_svg]:size-5">
          <Icon name="lock-keyhole" />
        </span>
        <div className="min-w-0 flex-1 space-y-2">
          <h2 id="key-backup-heading" className="font-semibold">
            Back up this shop's ID photo key
          </h2>
          <p>
            This shop's ID-photo key was generated on this server. Back it up somewhere apart from this server
            and its backups (a password manager, say): without it, no backup's ID photos can be read, and
            losing this server's disk loses them all.
          </p>
          <p className="text-muted-foreground text-sm">
            Key <span className="font-mono">{reminder.keyId}</span>, in{" "}
            <span className="break-all font-mono">{reminder.file}</span>. Other instances need the same key in
            ID_PHOTO_KEY.
          </p>
          {error ? (
            <p className="font-medium text-destructive" role="alert">
              {error}
            </p>
          ) : null}
          <Form method="post" className="pt-1">
            <CsrfInput />
            <input type="hidden" name="intent" value="confirm-key-backup" />
            <input type="hidden" name="keyId" value={reminder.keyId} />
            <Button type="submit" disabled={busy}>
              <Icon name="check" /> I have backed up the key
            </Button>
          </Form>
        </div>
      </div>
    </Card>
  );
}
