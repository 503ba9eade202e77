/**
 * One's own account: active sessions (device, last seen, this one marked), each
 * of the others can be signed out, or all at once; the password (current one required, other
 * sessions end); the second factor: set it up again, new recovery codes, turn it off where the role
 * allows. The password and second-factor changes ask 'Confirm it's you' first unless this session
 * proved its password and code in the last 10 minutes (record 037).
 */
import { data, Link, redirect, useNavigation } from "react-router";
import { ConfirmAccess } from "#app/components/admin/confirm-access.tsx";
import { PostForm } from "#app/components/admin/csrf.tsx";
import { AdminPageHeader } from "#app/components/admin/page-header.tsx";
import { NewPasswordFields, PasswordField } from "#app/components/admin/password-field.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { FieldError } from "#app/components/ui/input.tsx";
import { db } from "#app/db/client.server.ts";
import { actorOf, originOf } from "#app/features/audit/audit.server.ts";
import { idPhotoKeyring } from "#app/features/keyring/id-photo-crypto.server.ts";
import {
  changeOwnPassword,
  endOwnSession,
  listOwnSessions,
  signOutOtherSessions,
} from "#app/features/staff/account.server.ts";
import { formatWhen } from "#app/features/staff/format.ts";
import { adminForm, requirePermission } from "#app/features/staff/guard.server.ts";
import { ROLE_LABELS } from "#app/features/staff/permissions.ts";
import { accountActionSchema, fieldErrors } from "#app/features/staff/staff-forms.server.ts";
import { CONFIRM_FIRST, confirmAccess, sudoUntil } from "#app/features/staff/sudo.server.ts";
import { unusedRecoveryCodes } from "#app/features/staff/totp.server.ts";
import {
  regenerateRecoveryCodes,
  resetTwoFactor,
  roleRequiresTwoFactor,
} from "#app/features/staff/two-factor.server.ts";
import { confirmAccessRefusedStatus } from "#app/routes/shared/confirm-access-response.server.ts";
import { STORE_TIME_ZONE } from "#app/utils/store-time.ts";
import type { Route } from "./+types/account";

export function meta() {
  return [{ title: "Your account" }];
}

const clock = new Intl.DateTimeFormat("en-US", { timeStyle: "short", timeZone: STORE_TIME_ZONE });

export async function loader({ context }: Route.LoaderArgs) {
  const session = requirePermission(context, "account");
  const database = await db();
  const sessions = await listOwnSessions(database, session);
  const until = sudoUntil(session);
  return {
    email: session.email,
    role: ROLE_LABELS[session.role],
    twoFactor: session.twoFactor,
    twoFactorRequired: await roleRequiresTwoFactor(database, session.role),
    confirmedUntil: until ? clock.format(until) : null,
    recoveryCodesLeft: session.twoFactor ? await unusedRecoveryCodes(database, session.userId) : 0,
    sessions: sessions.map((entry) => ({
      ...entry,
      createdAt: formatWhen(entry.createdAt),
      lastSeenAt: formatWhen(entry.lastSeenAt),
    })),
  };
}

type Errors = Record<string, string>;
type ActionData =
  | { intent: "sign-out-others" | "end-session"; message: string; errors?: Errors }
  | { intent: "confirm-access"; errors: Errors }
  | { intent: "recovery-codes"; recoveryCodes?: string[]; errors?: Errors }
  | { intent: "turn-off-two-factor"; errors: Errors }
  | { intent: "change-password"; message?: string; errors?: Errors };

/** The intents that change the password or the second factor: only within the re-check's window. */
const SENSITIVE = new Set(["recovery-codes", "turn-off-two-factor", "change-password"]);

/** A refused intent: its errors, shown next to the form that posted it. */
function refused(intent: Exclude<ActionData["intent"], "sign-out-others">, errors: Errors, status = 400) {
  // The cast: TypeScript does not match one object with a union of intents to the per-intent variants.
  return data({ intent, errors } as ActionData, { status });
}

export async function action({ context }: Route.ActionArgs) {
  const session = requirePermission(context, "account");
  const form = adminForm(context);
  const parsed = accountActionSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    const intent = String(form.get("intent") ?? "change-password");
    const known = ["end-session", "confirm-access", "change-password"].includes(intent);
    return refused((known ? intent : "change-password") as "change-password", fieldErrors(parsed.error));
  }
  const database = await db();
  const actor = actorOf(session);
  const origin = originOf(context);
  if (SENSITIVE.has(parsed.data.intent) && !sudoUntil(session)) {
    return refused(parsed.data.intent as "change-password", { form: CONFIRM_FIRST }, 403);
  }
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
    case "end-session": {
      const ended = await endOwnSession(database, session, parsed.data.session, actor, origin);
      if (!ended) {
        return data<ActionData>(
          { intent: "end-session", message: "That session has already ended." },
          { status: 404 },
        );
      }
      return data<ActionData>({ intent: "end-session", message: "Signed out that session." });
    }
    case "confirm-access": {
      const result = await confirmAccess(database, idPhotoKeyring(), {
        session,
        password: parsed.data.password,
        code: parsed.data.code,
        actor,
        origin,
      });
      if (!result.ok)
        return refused("confirm-access", { form: result.error }, confirmAccessRefusedStatus(result));
      return redirect("/admin/account");
    }
    case "recovery-codes": {
      if (!session.twoFactor) return refused("recovery-codes", { form: "Set up two-factor sign-in first." });
      const recoveryCodes = await regenerateRecoveryCodes(database, {
        userId: session.userId,
        actor,
        origin,
      });
      return data<ActionData>({ intent: "recovery-codes", recoveryCodes });
    }
    case "turn-off-two-factor": {
      if (await roleRequiresTwoFactor(database, session.role)) {
        return refused("turn-off-two-factor", { form: "Your role needs two-factor sign-in." });
      }
      await resetTwoFactor(database, { userId: session.userId, actor, origin, keepSession: session });
      return redirect("/admin/account");
    }
    case "change-password": {
      const result = await changeOwnPassword(database, {
        session,
        currentPassword: parsed.data.currentPassword,
        newPassword: parsed.data.password,
        actor,
        origin,
      });
      if (!result.ok) return refused("change-password", { currentPassword: result.error });
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
  const errorsOf = (intent: ActionData["intent"]) =>
    actionData?.intent === intent ? (actionData.errors ?? {}) : {};
  const passwordErrors = errorsOf("change-password");
  const twoFactorError = errorsOf("recovery-codes").form ?? errorsOf("turn-off-two-factor").form;
  const confirmed = loaderData.confirmedUntil !== null;
  const sessionMessage =
    actionData?.intent === "sign-out-others" || actionData?.intent === "end-session"
      ? actionData.message
      : null;
  const buttonLink =
    "inline-flex min-h-11 items-center rounded-md border border-input bg-card px-3 font-semibold text-sm hover:bg-muted";
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <AdminPageHeader title="Your account" description={`${loaderData.email} · ${loaderData.role}`} />

      <Card className="space-y-4 p-4 sm:p-6">
        <h2 className="font-display text-primary text-xl">Active sessions</h2>
        <ul className="divide-y divide-border" aria-label="Active sessions">
          {loaderData.sessions.map((entry) => (
            <li
              key={entry.handle}
              data-testid="account-session"
              className="flex flex-wrap items-center justify-between gap-2 py-3"
            >
              <div className="min-w-0">
                <p className="font-medium">
                  {entry.device} {entry.current ? <Badge variant="confirmed">This device</Badge> : null}
                </p>
                <p className="text-muted-foreground text-sm">
                  Last seen {entry.lastSeenAt}
                  {entry.ipAddress ? ` · ${entry.ipAddress}` : ""} · signed in {entry.createdAt}
                </p>
              </div>
              {entry.current ? null : (
                <PostForm intent="end-session" fields={{ session: entry.handle }}>
                  <Button
                    type="submit"
                    variant="outline"
                    size="sm"
                    aria-label={`Sign out ${entry.device}, last seen ${entry.lastSeenAt}`}
                  >
                    Sign out
                  </Button>
                </PostForm>
              )}
            </li>
          ))}
        </ul>
        {loaderData.sessions.length > 1 ? (
          <PostForm intent="sign-out-others">
            <Button type="submit" variant="outline" disabled={busy("sign-out-others")}>
              {busy("sign-out-others") ? "Signing out..." : "Sign out the other sessions"}
            </Button>
          </PostForm>
        ) : null}
        {sessionMessage ? (
          <p role="status" className="text-sm">
            {sessionMessage}
          </p>
        ) : null}
      </Card>

      {confirmed ? (
        <p role="status" className="text-muted-foreground text-sm">
          Confirmed: you can change your password and two-factor sign-in until {loaderData.confirmedUntil}.
        </p>
      ) : (
        <ConfirmAccess
          twoFactor={loaderData.twoFactor}
          what="Changing your password or two-factor sign-in asks for your password and a code again."
          errors={errorsOf("confirm-access")}
        />
      )}

      <Card className="space-y-4 p-4 sm:p-6">
        <h2 className="font-display text-primary text-xl">Two-factor sign-in</h2>
        <p className="text-sm">
          {loaderData.twoFactor ? `On. ${loaderData.recoveryCodesLeft} of 10 recovery codes left.` : "Off."}
        </p>
        {confirmed ? (
          <div className="flex flex-wrap gap-2">
            <Link to="/admin/account/two-factor" className={buttonLink}>
              {loaderData.twoFactor ? "Set up again on a new phone" : "Set up two-factor sign-in"}
            </Link>
            {loaderData.twoFactor ? (
              <PostForm intent="recovery-codes">
                <Button type="submit" variant="outline" disabled={busy("recovery-codes")}>
                  New recovery codes
                </Button>
              </PostForm>
            ) : null}
            {loaderData.twoFactor && !loaderData.twoFactorRequired ? (
              <PostForm intent="turn-off-two-factor">
                <Button type="submit" variant="outline" disabled={busy("turn-off-two-factor")}>
                  Turn off
                </Button>
              </PostForm>
            ) : null}
          </div>
        ) : (
          <p className="text-muted-foreground text-sm">Confirm it's you above to change it.</p>
        )}
        <FieldError id="two-factor-error">{twoFactorError}</FieldError>
        {actionData?.intent === "recovery-codes" && actionData.recoveryCodes ? (
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
        {confirmed ? (
          <PostForm intent="change-password" className="max-w-sm space-y-4">
            <PasswordField
              name="currentPassword"
              label="Current password"
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
          </PostForm>
        ) : (
          <>
            <p className="text-muted-foreground text-sm">Confirm it's you above to change it.</p>
            <FieldError id="form-error">{passwordErrors.form}</FieldError>
          </>
        )}
      </Card>
    </div>
  );
}
