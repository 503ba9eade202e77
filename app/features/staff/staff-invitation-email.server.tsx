/**
 * The invitation to join the shop's staff: a single-use link valid 48 hours.
 * A React component like the other e-mails (record 021); sent through the outbox.
 */

import type { StaffRole } from "#app/db/schema.ts";
import {
  ButtonLink,
  EmailLayout,
  type EmailMessage,
  Paragraph,
  renderEmail,
  type StoreEmailSettings,
} from "#app/features/email/email-layout.server.tsx";
import { ROLE_LABELS } from "./permissions.ts";

export type StaffInvitationData = { firstName: string; role: StaffRole; link: string; validHours: number };

export function StaffInvitation(props: { data: StaffInvitationData; store: StoreEmailSettings }) {
  const { data, store } = props;
  const role = ROLE_LABELS[data.role].toLowerCase();
  return (
    <EmailLayout storeName={store.storeName} heading={`Join ${store.storeName} as ${role}`}>
      <Paragraph>Hi {data.firstName},</Paragraph>
      <Paragraph>
        You have been invited to the {store.storeName} back office as {role}. Open the link below to set your
        password{data.role === "driver" ? "" : " and two-factor sign-in"}.
      </Paragraph>
      <ButtonLink href={data.link} label="Accept the invitation" />
      <Paragraph muted>
        The link works once and for {data.validHours} hours. If you did not expect this e-mail, you can ignore
        it.
      </Paragraph>
    </EmailLayout>
  );
}

export function staffInvitationEmail(
  data: StaffInvitationData,
  store: StoreEmailSettings,
): Promise<EmailMessage> {
  return renderEmail(`Your invitation to ${store.storeName}`, <StaffInvitation data={data} store={store} />);
}
