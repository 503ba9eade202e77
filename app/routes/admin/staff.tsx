/**
 * Staff management (owners only): who is on the staff, their role, two-factor
 * sign-in and status; pending invitations; invite, resend, change a role, deactivate and reset a
 * second factor (the last two ask first). Works without JavaScript: the forms post directly.
 */
import { useEffect, useRef } from "react";
import { data, useNavigation } from "react-router";
import { ConfirmedAction } from "#app/components/admin/confirmed-action.tsx";
import { PostForm } from "#app/components/admin/csrf.tsx";
import { InvitationLink } from "#app/components/admin/invitation-link.tsx";
import { AdminPageHeader } from "#app/components/admin/page-header.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { FieldError, Input, Label, NativeSelect } from "#app/components/ui/input.tsx";
import { db } from "#app/db/client.server.ts";
import { STAFF_ROLES, type StaffRole } from "#app/db/schema.ts";
import { actorOf, originOf } from "#app/features/audit/audit.server.ts";
import { formatWhen } from "#app/features/staff/format.ts";
import { adminForm, requirePermission } from "#app/features/staff/guard.server.ts";
import { ROLE_LABELS } from "#app/features/staff/permissions.ts";
import {
  changeRole,
  deactivateStaff,
  inviteStaff,
  listStaff,
  resendInvitation,
  resetMemberTwoFactor,
  revokeInvitation,
  type StaffChange,
} from "#app/features/staff/staff.server.ts";
import { fieldErrors, staffActionSchema } from "#app/features/staff/staff-forms.server.ts";
import {
  driversRequireTwoFactor,
  setDriversRequireTwoFactor,
} from "#app/features/staff/two-factor.server.ts";
import type { Route } from "./+types/staff";

export function meta() {
  return [{ title: "Staff" }];
}

export async function loader({ context }: Route.LoaderArgs) {
  const session = requirePermission(context, "staff");
  const database = await db();
  const { members, invitations } = await listStaff(database);
  return {
    me: session.userId,
    driversRequireTwoFactor: await driversRequireTwoFactor(database),
    members: members.map((member) => ({
      ...member,
      deactivatedAt: member.deactivatedAt ? formatWhen(member.deactivatedAt) : null,
    })),
    invitations: invitations.map((invitation) => ({
      ...invitation,
      expiresAt: formatWhen(invitation.expiresAt),
    })),
  };
}

type ActionData = { result: StaffChange; intent?: string; errors?: Record<string, string> };

export async function action({ context }: Route.ActionArgs) {
  const session = requirePermission(context, "staff");
  const parsed = staffActionSchema.safeParse(Object.fromEntries(adminForm(context)));
  if (!parsed.success) {
    return data<ActionData>(
      { result: { ok: false, error: "Please check the form." }, errors: fieldErrors(parsed.error) },
      { status: 400 },
    );
  }
  const database = await db();
  const actor = actorOf(session);
  const origin = originOf(context);
  const input = parsed.data;
  let result: StaffChange;
  switch (input.intent) {
    case "invite":
      result = await inviteStaff(database, { ...input, actor, origin });
      break;
    case "resend":
      result = await resendInvitation(database, { invitationId: input.invitationId, actor, origin });
      break;
    case "revoke":
      result = await revokeInvitation(database, { invitationId: input.invitationId, actor, origin });
      break;
    case "change-role":
      result = await changeRole(database, { userId: input.userId, role: input.role, actor, origin });
      break;
    case "deactivate":
      result = await deactivateStaff(database, { userId: input.userId, actor, origin });
      break;
    case "reset-two-factor":
      result = await resetMemberTwoFactor(database, { userId: input.userId, actor, origin });
      break;
    case "drivers-two-factor":
      await setDriversRequireTwoFactor(database, input.required, actor, origin);
      result = {
        ok: true,
        message: input.required
          ? "Drivers now need two-factor sign-in."
          : "Two-factor sign-in is now optional for drivers.",
      };
      break;
  }
  return data<ActionData>({ result, intent: input.intent }, { status: result.ok ? 200 : 409 });
}

export default function Staff({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const inviting = navigation.state !== "idle" && navigation.formData?.get("intent") === "invite";
  const errors = actionData?.errors ?? {};
  // A sent invitation empties its form, ready for the next one (a refused one keeps what was typed).
  const inviteForm = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (actionData?.intent === "invite" && actionData.result.ok) inviteForm.current?.reset();
  }, [actionData]);
  return (
    <div className="space-y-6">
      <AdminPageHeader title="Staff" description="Who can open the back office, and what they can do." />
      {actionData ? (
        <p
          role={actionData.result.ok ? "status" : "alert"}
          className={
            actionData.result.ok
              ? "rounded-md bg-secondary px-3 py-2 text-secondary-foreground text-sm"
              : "rounded-md bg-destructive/10 px-3 py-2 text-destructive text-sm"
          }
        >
          {actionData.result.ok ? actionData.result.message : actionData.result.error}
        </p>
      ) : null}
      {actionData?.result.ok && actionData.result.link ? (
        <InvitationLink link={actionData.result.link} />
      ) : null}

      <Card className="p-4 sm:p-6">
        <h2 className="mb-4 font-display text-primary text-xl">Invite someone</h2>
        <PostForm
          ref={inviteForm}
          intent="invite"
          className="grid gap-4 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end"
        >
          <div className="space-y-1.5">
            <Label htmlFor="invite-email">Email</Label>
            <Input id="invite-email" name="email" type="email" required maxLength={320} autoComplete="off" />
            <FieldError id="invite-email-error">{errors.email}</FieldError>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="invite-first-name">First name</Label>
            <Input id="invite-first-name" name="firstName" required maxLength={60} autoComplete="off" />
            <FieldError id="invite-first-name-error">{errors.firstName}</FieldError>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="invite-role">Role</Label>
            <RoleSelect id="invite-role" defaultValue="driver" />
          </div>
          <Button type="submit" disabled={inviting}>
            {inviting ? "Sending..." : "Send invitation"}
          </Button>
        </PostForm>
      </Card>

      {loaderData.invitations.length > 0 ? (
        <Card className="p-4 sm:p-6">
          <h2 className="mb-2 font-display text-primary text-xl">Pending invitations</h2>
          <ul className="divide-y divide-border" aria-label="Pending invitations">
            {loaderData.invitations.map((invitation) => (
              <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                <div>
                  <p className="font-medium">
                    {invitation.firstName} · {invitation.email}
                  </p>
                  <p className="text-muted-foreground text-sm">
                    {ROLE_LABELS[invitation.role]} ·{" "}
                    {invitation.expired ? "Expired" : `Link valid until ${invitation.expiresAt}`}
                  </p>
                </div>
                <PostForm fields={{ invitationId: invitation.id }} className="flex flex-wrap gap-2">
                  {INVITATION_ACTIONS.map((action) => (
                    <Button
                      key={action.intent}
                      type="submit"
                      name="intent"
                      value={action.intent}
                      variant={action.variant}
                      aria-label={`${action.label} the invitation to ${invitation.email}`}
                    >
                      {action.label}
                    </Button>
                  ))}
                </PostForm>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}

      <Card className="p-4 sm:p-6">
        <h2 className="mb-2 font-display text-primary text-xl">Staff members</h2>
        <ul className="divide-y divide-border" aria-label="Staff members">
          {loaderData.members.map((member) => (
            <li key={member.id} className="space-y-3 py-4" data-testid="staff-member">
              <div className="flex flex-wrap items-center gap-2">
                <p className="font-medium">{member.firstName || member.email}</p>
                <span className="text-muted-foreground text-sm">{member.email}</span>
                <Badge variant="outline">{ROLE_LABELS[member.role]}</Badge>
                <Badge variant={member.twoFactor ? "confirmed" : "warning"}>
                  2FA {member.twoFactor ? "on" : "off"}
                </Badge>
                {member.deactivatedAt ? (
                  <Badge variant="cancelled">Deactivated {member.deactivatedAt}</Badge>
                ) : (
                  <Badge variant="neutral">Active</Badge>
                )}
                {member.id === loaderData.me ? <Badge variant="neutral">You</Badge> : null}
              </div>
              {member.deactivatedAt || member.id === loaderData.me ? null : (
                <div className="flex flex-wrap items-end gap-2">
                  <PostForm
                    intent="change-role"
                    fields={{ userId: member.id }}
                    className="flex items-end gap-2"
                  >
                    <div className="space-y-1.5">
                      <Label htmlFor={`role-${member.id}`}>Role</Label>
                      <RoleSelect id={`role-${member.id}`} defaultValue={member.role} />
                    </div>
                    <Button type="submit" variant="outline" aria-label={`Change the role of ${member.email}`}>
                      Change role
                    </Button>
                  </PostForm>
                  <ConfirmedAction
                    intent="reset-two-factor"
                    fields={{ userId: member.id }}
                    label="Reset 2FA"
                    who={member.email}
                    title={`Reset two-factor sign-in of ${member.email}?`}
                    description="Their authenticator app and recovery codes stop working; they set up two-factor sign-in again at their next sign-in."
                  />
                  <ConfirmedAction
                    intent="deactivate"
                    fields={{ userId: member.id }}
                    label="Deactivate"
                    who={member.email}
                    title={`Deactivate ${member.email}?`}
                    description="They are signed out everywhere at once and can no longer sign in. You can invite them again later."
                  />
                </div>
              )}
            </li>
          ))}
        </ul>
      </Card>

      <Card className="p-4 sm:p-6">
        <h2 className="mb-2 font-display text-primary text-xl">Two-factor sign-in for drivers</h2>
        <p className="mb-4 text-muted-foreground text-sm">
          Owners and managers always need two-factor sign-in. For drivers it is optional unless you require
          it.
        </p>
        <PostForm intent="drivers-two-factor" className="flex flex-wrap items-end gap-2">
          <div className="space-y-1.5">
            <Label htmlFor="drivers-two-factor">Drivers</Label>
            <NativeSelect
              id="drivers-two-factor"
              name="required"
              defaultValue={loaderData.driversRequireTwoFactor ? "on" : "off"}
            >
              <option value="off">Optional</option>
              <option value="on">Required</option>
            </NativeSelect>
          </div>
          <Button type="submit" variant="outline">
            Save
          </Button>
        </PostForm>
      </Card>
    </div>
  );
}

const INVITATION_ACTIONS = [
  { intent: "resend", label: "Resend", variant: "outline" },
  { intent: "revoke", label: "Withdraw", variant: "outlineDestructive" },
] as const;

function RoleSelect({ id, defaultValue }: { id: string; defaultValue: StaffRole }) {
  return (
    <NativeSelect id={id} name="role" defaultValue={defaultValue}>
      {STAFF_ROLES.map((role) => (
        <option key={role} value={role}>
          {ROLE_LABELS[role]}
        </option>
      ))}
    </NativeSelect>
  );
}
