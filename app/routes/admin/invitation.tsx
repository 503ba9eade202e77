/**
 * Accepting an invitation to the staff, outside the admin guard: the link's
 * token names the invitation; the invitee sets a password, then signs in (and sets up two-factor
 * sign-in when their role needs it). Used, replaced and expired links say so.
 */
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { NewPasswordFields } from "#app/components/admin/password-field.tsx";
import { SignInCard } from "#app/components/admin/sign-in-card.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { FieldError } from "#app/components/ui/input.tsx";
import { db } from "#app/db/client.server.ts";
import { originOf } from "#app/features/audit/audit.server.ts";
import { isSameOrigin, NO_STORE } from "#app/features/staff/guard.server.ts";
import { signInNoticeUrl } from "#app/features/staff/login.schema.ts";
import { ROLE_LABELS } from "#app/features/staff/permissions.ts";
import { acceptInvitation, findOpenInvitation } from "#app/features/staff/staff.server.ts";
import { acceptInvitationSchema, fieldErrors } from "#app/features/staff/staff-forms.server.ts";
import { config } from "#app/utils/env.server.ts";
import { readSingleValueForm } from "#app/utils/form-data.server.ts";
import type { Route } from "./+types/invitation";

export function meta() {
  return [{ title: "Your invitation" }, { name: "robots", content: "noindex, nofollow" }];
}

export function headers() {
  // The token is in the URL: never cached, never sent on as a referrer.
  return { "Cache-Control": NO_STORE, "Referrer-Policy": "no-referrer" };
}

const CLOSED: Record<string, string> = {
  unknown: "This invitation link is not valid. Ask the shop's owner for a new invitation.",
  used: "This invitation was already used. Sign in with the password you set.",
  replaced: "A newer invitation was sent for this address: use the link in the latest e-mail.",
  expired:
    "This invitation link has expired (links work for 48 hours). Ask the shop's owner to send a new one.",
};

export async function loader({ params }: Route.LoaderArgs) {
  const found = await findOpenInvitation(await db(), params.token);
  const storeName = config().STORE_NAME;
  if (found.status !== "open") {
    return data(
      { storeName, closed: CLOSED[found.status] ?? CLOSED.unknown, invitation: null },
      { status: 410 },
    );
  }
  const { email, firstName, role } = found.invitation;
  return { storeName, closed: null, invitation: { email, firstName, role: ROLE_LABELS[role] } };
}

type ActionData = { errors: Record<string, string> };

export async function action({ request, params, context }: Route.ActionArgs) {
  if (!isSameOrigin(request))
    return data<ActionData>({ errors: { form: "Cross-site request refused" } }, { status: 403 });
  const parsed = acceptInvitationSchema.safeParse(Object.fromEntries(await readSingleValueForm(request)));
  if (!parsed.success) return data<ActionData>({ errors: fieldErrors(parsed.error) }, { status: 400 });
  const result = await acceptInvitation(await db(), {
    token: params.token,
    password: parsed.data.password,
    origin: originOf(context),
  });
  if (!result.ok) return data<ActionData>({ errors: { form: result.error } }, { status: 410 });
  return redirect(signInNoticeUrl("password-set"), { headers: { "Cache-Control": NO_STORE } });
}

export default function Invitation({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const errors = actionData?.errors ?? {};
  return (
    <SignInCard
      title={`Join ${loaderData.storeName}`}
      subtitle={
        loaderData.invitation
          ? `Hi ${loaderData.invitation.firstName}, you are invited as ${loaderData.invitation.role.toLowerCase()} (${loaderData.invitation.email}). Choose a password to finish.`
          : "Staff invitation"
      }
    >
      {loaderData.invitation ? (
        <Form method="post" className="space-y-4">
          <input type="hidden" name="username" autoComplete="username" value={loaderData.invitation.email} />
          <NewPasswordFields label="Password" errors={errors} />
          <FieldError id="form-error">{errors.form}</FieldError>
          <Button type="submit" className="w-full" size="lg" disabled={submitting}>
            {submitting ? "Saving..." : "Set password"}
          </Button>
        </Form>
      ) : (
        <>
          <p role="alert" className="text-sm">
            {loaderData.closed}
          </p>
          <Link
            to="/admin/login"
            className="mt-4 inline-flex min-h-11 items-center text-primary text-sm underline"
          >
            Go to sign-in
          </Link>
        </>
      )}
    </SignInCard>
  );
}
