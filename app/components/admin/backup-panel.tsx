import { Card } from "#app/components/ui/card.tsx";
import { STORE_TIME_ZONE } from "#app/utils/store-time.ts";

export type BackupSummary = {
  at: string | null;
  bytes: number | null;
  verified: boolean;
  error: string | null;
  stale: boolean;
};

const when = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: STORE_TIME_ZONE,
});

function size(bytes: number) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The last backup's time and size; red with a plain warning when none exists or it is over 48 h old. */
export function BackupPanel({ backup }: { backup: BackupSummary }) {
  const warn = backup.stale || !backup.verified;
  return (
    <Card className={`mt-6 p-5 ${warn ? "ring-2 ring-destructive" : ""}`} data-testid="backup-panel">
      <h2 className="font-semibold">Backups</h2>
      {backup.at && backup.bytes !== null ? (
        <p className={warn ? "text-destructive" : "text-muted-foreground"}>
          Last backup {when.format(new Date(backup.at))}, {size(backup.bytes)}
        </p>
      ) : null}
      {backup.stale ? (
        <p className="font-medium text-destructive" role="alert">
          {backup.at
            ? "No backup in the last 48 hours. Check the server's log and run npm run db:backup."
            : "No backup exists yet. Run npm run db:backup."}
        </p>
      ) : null}
      {backup.error ? (
        <p className="font-medium text-destructive" role="alert">
          {backup.error}
        </p>
      ) : null}
    </Card>
  );
}
