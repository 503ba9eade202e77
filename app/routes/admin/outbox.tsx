import { Form, Link, redirect, useSearchParams } from "react-router";
import { CsrfInput } from "#app/components/admin/csrf.tsx";
import { RefreshButton } from "#app/components/admin/orders-screen.tsx";
import { AdminPageHeader } from "#app/components/admin/page-header.tsx";
import { usePolling } from "#app/components/admin/use-polling.ts";
import { Badge } from "#app/components/ui/badge.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Icon } from "#app/components/ui/icon.tsx";
import { db } from "#app/db/client.server.ts";
import { discardHeldEmails, releaseHeldEmails } from "#app/features/backups/held-emails.server.ts";
import { listOutboxEmails } from "#app/features/email/outbox-list.server.ts";
import { adminForm, requireAdmin } from "#app/features/staff/guard.server.ts";
import { cn } from "#app/utils/cn.ts";
import { STORE_TIME_ZONE } from "#app/utils/store-time.ts";
import type { Route } from "./+types/outbox";

const HELD_ACTIONS = [
  { intent: "send-held", label: "Send", variant: "primary" },
  { intent: "discard-held", label: "Discard", variant: "outline" },
] as const;

export function meta() {
  return [{ title: "E-mail Outbox | Admin" }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context);
  const url = new URL(request.url);
  const status = url.searchParams.get("status");
  const before = url.searchParams.get("before");
  return { ...(await listOutboxEmails({ cursor: before, status })), status, isFirstPage: !before };
}

/** 'Send them' / 'Discard them' for the mails a restore held (record 017). */
export async function action({ context }: Route.ActionArgs) {
  requireAdmin(context);
  const intent = adminForm(context).get("intent");
  if (intent === "send-held") await releaseHeldEmails(await db());
  else if (intent === "discard-held") await discardHeldEmails(await db());
  return redirect("/admin/outbox");
}

const STATUS_VARIANT = {
  held: "pending",
  queued: "pending",
  sending: "confirmed",
  sent: "delivered",
  failed: "cancelled",
} as const;
const FILTERS = ["all", "queued", "sending", "sent", "failed"] as const;

/**
 * A mail no SMTP server took (SMTP_URL unset: written to DATA_DIR/outbox) is not 'sent': nobody
 * received it until someone passes the file on.
 */
function statusText(email: { status: string; sentVia: string | null }) {
  return email.status === "sent" && email.sentVia === "folder"
    ? "written to the outbox folder"
    : email.status;
}
const when = new Intl.DateTimeFormat("en-US", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: STORE_TIME_ZONE,
});

export default function Outbox({ loaderData }: Route.ComponentProps) {
  usePolling(30_000);
  const [params] = useSearchParams();
  const current = loaderData.status ?? "all";
  const failed = loaderData.counts.failed ?? 0;
  const held = loaderData.counts.held ?? 0;
  return (
    <>
      <AdminPageHeader
        title="E-mail Outbox"
        description="Order e-mails queued, sent and failed, newest first."
      >
        <Link to="/admin/dashboard" className={buttonVariants({ variant: "outline" })}>
          <Icon name="arrow-left" /> Back to Dashboard
        </Link>
        <RefreshButton />
      </AdminPageHeader>
      {held > 0 ? (
        <div
          role="alert"
          className="mb-4 flex flex-wrap items-center gap-3 rounded-md bg-destructive/10 px-4 py-3 text-destructive text-sm"
        >
          <p className="flex-1">
            Restored from a backup: {held} e-mail{held === 1 ? "" : "s"} held. Send them or discard them.
          </p>
          <Form method="post" className="flex gap-2">
            <CsrfInput />
            {HELD_ACTIONS.map(({ intent, label, variant }) => (
              <button
                key={intent}
                type="submit"
                name="intent"
                value={intent}
                className={buttonVariants({ variant })}
              >
                {label}
              </button>
            ))}
          </Form>
        </div>
      ) : null}
      {failed > 0 ? (
        <p
          role="alert"
          className="mb-4 flex items-center gap-2 rounded-md bg-destructive/10 px-4 py-3 text-destructive text-sm"
        >
          <Icon name="triangle-exclamation-point" className="size-4" /> {failed} e-mail
          {failed === 1 ? "" : "s"} could not be sent after every retry.
        </p>
      ) : null}
      <nav aria-label="Filter by status" className="mb-4 flex flex-wrap gap-2">
        {FILTERS.map((filter) => {
          const count =
            filter === "all"
              ? Object.values(loaderData.counts).reduce((sum, value) => sum + value, 0)
              : (loaderData.counts[filter] ?? 0);
          return (
            <Link
              key={filter}
              to={filter === "all" ? "/admin/outbox" : `/admin/outbox?status=${filter}`}
              aria-current={current === filter ? "page" : undefined}
              className={cn(
                "inline-flex min-h-11 items-center gap-2 rounded-full border px-3 font-medium text-sm capitalize",
                current === filter
                  ? "border-primary bg-secondary text-secondary-foreground"
                  : "border-border bg-card hover:bg-muted",
              )}
            >
              {filter} <span className="text-muted-foreground text-xs tabular-nums">{count}</span>
            </Link>
          );
        })}
      </nav>
      {loaderData.emails.length === 0 ? (
        <p className="rounded-lg border border-border border-dashed bg-card px-6 py-16 text-center text-muted-foreground">
          No e-mails here yet.
        </p>
      ) : (
        <ul className="space-y-3">
          {loaderData.emails.map((email) => (
            <li key={email.id}>
              <Card className="p-4">
                <details>
                  <summary className="flex min-h-11 cursor-pointer list-none flex-wrap items-center justify-between gap-2">
                    <span className="min-w-0">
                      <span className="block truncate font-medium">{email.subject || "Text message"}</span>
                      <span className="block truncate text-muted-foreground text-sm">
                        To {email.toAddress} · {when.format(new Date(email.createdAt))}
                      </span>
                    </span>
                    <span className="flex items-center gap-2">
                      <Badge
                        variant={STATUS_VARIANT[email.status as keyof typeof STATUS_VARIANT] ?? "neutral"}
                      >
                        {statusText(email)}
                      </Badge>
                      <Icon name="chevron-right" className="size-4 text-muted-foreground" />
                    </span>
                  </summary>
                  <dl className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[8rem_1fr]">
                    <dt className="text-muted-foreground">Kind</dt>
                    <dd>{email.kind}</dd>
                    <dt className="text-muted-foreground">Attempts</dt>
                    <dd>{email.attempts}</dd>
                    {email.sentAt ? (
                      <>
                        <dt className="text-muted-foreground">
                          {email.sentVia === "folder" ? "Written" : "Sent"}
                        </dt>
                        <dd>{when.format(new Date(email.sentAt))}</dd>
                      </>
                    ) : (
                      <>
                        <dt className="text-muted-foreground">Next attempt</dt>
                        <dd>
                          {email.status === "failed"
                            ? "None (gave up)"
                            : when.format(new Date(email.nextAttemptAt))}
                        </dd>
                      </>
                    )}
                    {email.lastError ? (
                      <>
                        <dt className="text-muted-foreground">Last error</dt>
                        <dd className="break-words text-destructive">{email.lastError}</dd>
                      </>
                    ) : null}
                  </dl>
                  <pre className="mt-3 max-h-96 overflow-auto whitespace-pre-wrap rounded-md bg-muted p-3 font-sans text-sm">
                    {email.textBody}
                  </pre>
                </details>
              </Card>
            </li>
          ))}
        </ul>
      )}
      {loaderData.nextCursor || !loaderData.isFirstPage ? (
        <nav aria-label="Pages" className="mt-6 flex justify-between">
          {loaderData.isFirstPage ? (
            <span />
          ) : (
            <Link
              to={`/admin/outbox${params.get("status") ? `?status=${params.get("status")}` : ""}`}
              className={buttonVariants({ variant: "outline" })}
            >
              Newest
            </Link>
          )}
          {loaderData.nextCursor ? (
            <Link
              to={`/admin/outbox?${new URLSearchParams({ ...(loaderData.status ? { status: loaderData.status } : {}), before: loaderData.nextCursor })}`}
              className={buttonVariants({ variant: "outline" })}
            >
              Older
            </Link>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}
