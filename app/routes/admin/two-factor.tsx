/**
 * Setting up two-factor sign-in (P-27): a QR code drawn on the server (inline SVG) and the
 * secret as text; it takes effect once one code is confirmed, then 10 recovery codes are shown
 * once. Owners and managers (and drivers when the owner requires it) open nothing else until done.
 * A session that did not prove its password (and code) in the last 10 minutes is asked to first
 * (record 037): a stolen session cannot put its own authenticator on the account.
 */
import { data, Link, redirect, useNavigation } from "react-router";
import { ConfirmAccess } from "#app/components/admin/confirm-access.tsx";
import { PostForm } from "#app/components/admin/csrf.tsx";
import { InputField } from "#app/components/admin/input-field.tsx";
import { AdminPageHeader } from "#app/components/admin/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { db } from "#app/db/client.server.ts";
import { actorOf, originOf } from "#app/features/audit/audit.server.ts";
import { idPhotoKeyring } from "#app/features/keyring/id-photo-crypto.server.ts";
import { adminForm, requirePermission } from "#app/features/staff/guard.server.ts";
import { confirmAccessSchema, enrolmentSchema, fieldErrors } from "#app/features/staff/staff-forms.server.ts";
import { CONFIRM_FIRST, confirmAccess, inSudoMode } from "#app/features/staff/sudo.server.ts";
import {
  groupedSecret,
  newTotpSecret,
  qrCodeSvg,
  sealPendingSecret,
  totpUri,
  unsealPendingSecret,
} from "#app/features/staff/totp.server.ts";
import { confirmEnrolment, roleRequiresTwoFactor } from "#app/features/staff/two-factor.server.ts";
import { confirmAccessRefusedStatus } from "#app/routes/shared/confirm-access-response.server.ts";
import { config } from "#app/utils/env.server.ts";
import type { Route } from "./+types/two-factor";

export function meta() {
  return [{ title: "Two-factor sign-in" }];
}

/** What the page shows to set up `secret`: its QR code, the secret as text, and the sealed form value. */
async function setupFor(session: { userId: string; email: string }, secret: string) {
  return {
    qrSvg: await qrCodeSvg(totpUri(secret, session.email, config().STORE_NAME)),
    secret: groupedSecret(secret),
    pending: sealPendingSecret(idPhotoKeyring(), session.userId, secret),
  };
}

export async function loader({ context }: Route.LoaderArgs) {
  const session = requirePermission(context, "account");
  const confirmed = inSudoMode(session);
  return {
    enrolled: session.twoFactor,
    required: await roleRequiresTwoFactor(await db(), session.role),
    // No secret is shown before the re-check: there is nothing to scan until then.
    setup: confirmed ? await setupFor(session, newTotpSecret()) : null,
  };
}

type Setup = Awaited<ReturnType<typeof setupFor>>;
type ActionData =
  | { error: string; setup?: Setup; recoveryCodes?: undefined; confirmErrors?: undefined }
  | { confirmErrors: Record<string, string>; error?: undefined; setup?: undefined; recoveryCodes?: undefined }
  | { recoveryCodes: string[]; error?: undefined; setup?: undefined; confirmErrors?: undefined };

export async function action({ context }: Route.ActionArgs) {
  const session = requirePermission(context, "account");
  const form = adminForm(context);
  if (form.get("intent") === "confirm-access") {
    const confirm = confirmAccessSchema.safeParse(Object.fromEntries(form));
    if (!confirm.success) {
      return data<ActionData>({ confirmErrors: fieldErrors(confirm.error) }, { status: 400 });
    }
    const result = await confirmAccess(await db(), idPhotoKeyring(), {
      session,
      password: confirm.data.password,
      code: confirm.data.code,
      origin: originOf(context),
    });
    if (!result.ok)
      return data<ActionData>(
        { confirmErrors: { form: result.error } },
        { status: confirmAccessRefusedStatus(result) },
      );
    return redirect("/admin/account/two-factor");
  }
  if (!inSudoMode(session))
    return data<ActionData>({ confirmErrors: { form: CONFIRM_FIRST } }, { status: 403 });
  const parsed = enrolmentSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    return data<ActionData>({ error: parsed.error.issues[0]?.message ?? "Enter the code" }, { status: 400 });
  }
  const keyring = idPhotoKeyring();
  const secret = unsealPendingSecret(keyring, session.userId, parsed.data.pending);
  if (!secret)
    return data<ActionData>(
      { error: "This page is out of date. Reload it and scan again." },
      { status: 400 },
    );
  const result = await confirmEnrolment(await db(), keyring, {
    userId: session.userId,
    secret,
    code: parsed.data.code,
    actor: actorOf(session),
    origin: originOf(context),
  });
  if (!result.ok) {
    // The same secret again (the app already has it), also when the page is posted without JavaScript.
    return data<ActionData>(
      {
        error: "That code is not right. Check the time on your phone and try the newest code.",
        setup: await setupFor(session, secret),
      },
      { status: 400 },
    );
  }
  return data<ActionData>({ recoveryCodes: result.recoveryCodes });
}

export default function TwoFactorSetup({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  if (actionData?.recoveryCodes) return <RecoveryCodes codes={actionData.recoveryCodes} />;
  const setup = actionData?.setup ?? loaderData.setup;
  const header = (
    <AdminPageHeader
      title="Two-factor sign-in"
      description={
        loaderData.enrolled
          ? "Two-factor sign-in is on. Set it up again here if you use a new phone: the old codes stop working once you confirm."
          : loaderData.required
            ? "Your role needs two-factor sign-in. Set it up to continue."
            : "Add a second step to your sign-in with an authenticator app."
      }
    />
  );
  if (!setup) {
    return (
      <div className="mx-auto max-w-2xl">
        {header}
        <ConfirmAccess
          twoFactor={loaderData.enrolled}
          what="Setting up two-factor sign-in asks for your password and a code again."
          errors={actionData?.confirmErrors}
        />
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-2xl">
      {header}
      <Card className="space-y-6 p-4 sm:p-6">
        <ol className="list-decimal space-y-2 pl-5 text-sm">
          <li>
            Open an authenticator app on your phone (for example Google Authenticator, 1Password, Authy).
          </li>
          <li>Scan this QR code, or type the secret below.</li>
          <li>Enter the 6-digit code the app shows.</li>
        </ol>
        <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
          <div
            className="size-52 shrink-0 rounded-md border border-border bg-white p-2 [&_svg]:size-full"
            role="img"
            aria-label="QR code for your authenticator app"
            // Drawn on the server by `qrcode` from the otpauth URI: no script, no external image.
            // biome-ignore lint/security/noDangerouslySetInnerHtml: our own server-rendered SVG
            dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
          />
          <div className="min-w-0 space-y-1">
            <p className="font-medium text-sm">Secret</p>
            <p data-testid="totp-secret" className="break-all font-mono text-base tracking-wider">
              {setup.secret}
            </p>
            <p className="text-muted-foreground text-xs">Time-based, 6 digits, every 30 seconds.</p>
          </div>
        </div>
        <PostForm fields={{ pending: setup.pending }} className="space-y-4">
          <InputField
            id="code"
            label="Code from the app"
            error={actionData?.error}
            className="max-w-xs"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="\d{3} ?\d{3}"
            maxLength={7}
            required
          />
          <Button type="submit" size="lg" disabled={submitting}>
            {submitting ? "Checking..." : "Turn on two-factor sign-in"}
          </Button>
        </PostForm>
      </Card>
    </div>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div className="mx-auto max-w-2xl">
      <AdminPageHeader title="Your recovery codes" description="Two-factor sign-in is on." />
      <Card className="space-y-4 p-4 sm:p-6">
        <p className="text-sm">
          Keep these 10 codes somewhere safe (printed, or in a password manager). Each one signs you in once
          if you lose your phone. <strong>They are shown only now.</strong>
        </p>
        <ul data-testid="recovery-codes" className="grid grid-cols-2 gap-2 font-mono text-base">
          {codes.map((code) => (
            <li key={code} className="rounded-md bg-muted px-3 py-2 text-center">
              {code}
            </li>
          ))}
        </ul>
        <Button type="button" variant="outline" onClick={() => window.print()}>
          Print
        </Button>
        <div>
          <Link
            to="/admin"
            className="inline-flex min-h-11 items-center rounded-md bg-primary px-4 font-semibold text-primary-foreground"
          >
            I have saved them, continue
          </Link>
        </div>
      </Card>
    </div>
  );
}
