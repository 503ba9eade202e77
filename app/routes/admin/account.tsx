/**
 * One's own account (issue 16 item 2): active sessions (device, last seen, this one marked) and
 * 'Sign out the other sessions'; the password (current one required, other sessions end); the
 * second factor: set it up again, new recovery codes.
 */
import { data, Form, Link, useNavigation } from "react-router";
import { CsrfInput } from "#app/components/admin/csrf.tsx";
import { AdminPageHeader } from "#app/components/admin/page-header.tsx";
import { NewPasswordFields, PasswordField } from "#app/components/admin/password-field.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { FieldError } from "#app/components/ui/input.tsx";
import { db } from "#app/db/client.server.ts";
import { adminForm, requirePermission } from "#app/features/admin-auth/guard.server.ts";
import {
  changeOwnPassword,
  listOwnSessions,
  signOutOtherSessions,
} from "#app/features/staff/account.server.ts";
import { actorOf, originOf } from "#app/features/staff/audit.server.ts";
import { formatWhen } from "#app/features/staff/format.ts";
import { ROLE_LABELS } from "#app/features/staff/permissions.ts";
import { accountActionSchema, fieldErrors } from "#app/features/staff/staff-forms.server.ts";
import { unusedRecoveryCodes } from "#app/features/staff/totp.server.ts";
import { regenerateRecoveryCodes } from "#app/features/staff/two-factor.server.ts";
import type { Route } from "./+types/account";

export function meta() {
  return [{ title: "Your account" }];
}

export async function loader({ context }: Route.LoaderArgs) {
  const session = requirePermission(context, "account");
  const database = await db();
  const sessions = await listOwnSessions(database, session);
  return {
    email: session.email,
    role: ROLE_LABELS[session.role],
    twoFactor: session.twoFactor,
    recoveryCodesLeft: session.twoFactor ? await unusedRecoveryCodes(database, session.userId) : 0,
    sessions: sessions.map((entry) => ({
      ...entry,
      createdAt: formatWhen(entry.createdAt),
      lastSeenAt: formatWhen(entry.lastSeenAt),
    })),
  };
}

type ActionData =
  | { intent: "sign-out-others"; message: string }
  | { intent: "recovery-codes"; recoveryCodes: string[] }
  | { intent: "change-password"; message?: string; errors?: Record<string, string> };

export async function action({ context }: Route.ActionArgs) {
  const session = requirePermission(context, "account");
  const parsed = accountActionSchema.safeParse(Object.fromEntries(adminForm(context)));
  if (!parsed.success) {
    return data<ActionData>(
      { intent: "change-password", errors: fieldErrors(parsed.error) },
      { status: 400 },
    );
  }
  const database = await db();
  const actor = actorOf(session);
  const origin = originOf(context);
  switch (parsed.data.intent) {
    case "sign-out-others": {
      const ended = await signOutOtherSessions(database, session, actor, origin);
      return data<ActionData>({
        intent: "sign-out-others",
        message:
          ended === 0
            ? "You had no other sessions."
            : `Signed out ${ended} other ${ended === 1 ? "session" : "sessions"}.`,
      });
    }
    case "recovery-codes": {
      if (!session.twoFactor)
        return data<ActionData>(
          { intent: "change-password", errors: { form: "Set up two-factor sign-in first." } },
          { status: 400 },
        );
      const recoveryCodes = await regenerateRecoveryCodes(database, {
        userId: session.userId,
        actor,
        origin,
      });
      return data<ActionData>({ intent: "recovery-codes", recoveryCodes });
    }
    case "change-password": {
      const result = await changeOwnPassword(database, {
        session,
        currentPassword: parsed.data.currentPassword,
        newPassword: parsed.data.password,
        actor,
        origin,
      });
      if (!result.ok) {
        return data<ActionData>(
          { intent: "change-password", errors: { currentPassword: result.error } },
          { status: 400 },
        );
      }
      return data<ActionData>({
        intent: "change-password",
        message: "Your password was changed. Your other sessions were signed out.",
      });
    }
  }
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = (intent: string) =>
    navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const passwordErrors = actionData?.intent === "change-password" ? (actionData.errors ?? {}) : {};
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <AdminPageHeader title="Your account" description={`${loaderData.email} · ${loaderData.role}`} />

      <Card className="space-y-4 p-4 sm:p-6">
        <h2 className="font-display text-primary text-xl">Active sessions</h2>
        <ul className="divide-y divide-border" aria-label="Active sessions">
          {loaderData.sessions.map((entry) => (
            <li
              key={`${entry.createdAt}-${entry.device}-${entry.lastSeenAt}`}
              className="flex flex-wrap items-center justify-between gap-2 py-3"
            >
              <div>
                <p className="font-medium">
                  {entry.device} {entry.current ? <Badge variant="confirmed">This device</Badge> : null}
                </p>
                <p className="text-muted-foreground text-sm">
                  Last seen {entry.lastSeenAt}
                  {entry.ipAddress ? ` · ${entry.ipAddress}` : ""} · signed in {entry.createdAt}
                </p>
              </div>
            </li>
          ))}
        </ul>
        <Form method="post">
          <CsrfInput />
          <input type="hidden" name="intent" value="sign-out-others" />
          <Button type="submit" variant="outline" disabled={busy("sign-out-others")}>
            {busy("sign-out-others") ? "Signing out..." : "Sign out the other sessions"}
          </Button>
        </Form>
        {actionData?.intent === "sign-out-others" ? (
          <p role="status" className="text-sm">
            {actionData.message}
          </p>
        ) : null}
      </Card>

      <Card className="space-y-4 p-4 sm:p-6">
        <h2 className="font-display text-primary text-xl">Two-factor sign-in</h2>
        <p className="text-sm">
          {loaderData.twoFactor ? `On. ${loaderData.recoveryCodesLeft} of 10 recovery codes left.` : "Off."}
        </p>
        <div className="flex flex-wrap gap-2">
          <Link
            to="/admin/account/two-factor"
            className="inline-flex min-h-11 items-center rounded-md border border-input bg-card px-3 font-semibold text-sm hover:bg-muted"
          >
            {loaderData.twoFactor ? "Set up again on a new phone" : "Set up two-factor sign-in"}
          </Link>
          {loaderData.twoFactor ? (
            <Form method="post">
              <CsrfInput />
              <input type="hidden" name="intent" value="recovery-codes" />
              <Button type="submit" variant="outline" disabled={busy("recovery-codes")}>
                New recovery codes
              </Button>
            </Form>
          ) : null}
        </div>
        {actionData?.intent === "recovery-codes" ? (
          <div role="status" className="space-y-2">
            <p className="text-sm">
              Your new recovery codes (the old ones no longer work). <strong>They are shown only now.</strong>
            </p>
            <ul data-testid="recovery-codes" className="grid grid-cols-2 gap-2 font-mono">
              {actionData.recoveryCodes.map((code) => (
                <li key={code} className="rounded-md bg-muted px-3 py-2 text-center">
                  {code}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </Card>

      <Card className="space-y-4 p-4 sm:p-6">
        <h2 className="font-display text-primary text-xl">Change password</h2>
        <Form method="post" className="max-w-sm space-y-4">
          <CsrfInput />
          <input type="hidden" name="intent" value="change-password" />
          <PasswordField
            name="currentPassword"
            label="Current password"
            autoComplete="current-password"
            error={passwordErrors.currentPassword}
          />
          <NewPasswordFields label="New password" errors={passwordErrors} />
          <FieldError id="form-error">{passwordErrors.form}</FieldError>
          <Button type="submit" disabled={busy("change-password")}>
            {busy("change-password") ? "Changing..." : "Change password"}
          </Button>
          {actionData?.intent === "change-password" && actionData.message ? (
            <p role="status" className="text-sm">
              {actionData.message}
            </p>
          ) : null}
        </Form>
      </Card>
    </div>
  );
}
