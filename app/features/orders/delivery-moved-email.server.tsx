/**
 * The customer's e-mail when staff move their order to another delivery time (a slot or a date
 * closed for deliveries): the new time, the old one and why, the order page's link.
 */

import {
  ButtonLink,
  EmailLayout,
  emailTemplate,
  Notice,
  Paragraph,
} from "#app/features/email/email-layout.server.tsx";
import type { EmailMessage, OrderEmailData, StoreEmailSettings } from "./order-emails.server.tsx";
import { type StatusEmailView, statusEmailView } from "./status-emails.server.tsx";

type MovedView = StatusEmailView & { previous: string; closedBecause: string };

export function DeliveryMovedEmail({ view }: { view: MovedView }) {
  return (
    <EmailLayout storeName={view.storeName} heading="Your delivery time has changed">
      <Paragraph>Hi {view.customerName},</Paragraph>
      <Paragraph>
        We're not delivering at {view.previous} ({view.closedBecause}), so we moved your order #{view.shortId}{" "}
        to {view.delivery}. We will bring it to {view.address}.
      </Paragraph>
      <Notice>
        If the new time does not suit you, call {view.storePhone} or reply to this e-mail. Please have{" "}
        {view.total} in cash ready, and your ID: you must be 21 or older.
      </Notice>
      <ButtonLink href={view.orderLink} label="View your order" />
      <Paragraph muted>— {view.storeName}</Paragraph>
    </EmailLayout>
  );
}

const template = emailTemplate((view: MovedView) => ({
  subject: `New delivery time for your order #${view.shortId}: ${view.delivery}`,
  element: <DeliveryMovedEmail view={view} />,
}));

/** `order` as it is now (moved); `previous`: the delivery it had ('Tue, Nov 24, 2:00 PM-4:00 PM'). */
export function deliveryMovedEmail(
  order: OrderEmailData,
  store: StoreEmailSettings,
  previous: string,
  closedBecause: string,
): Promise<EmailMessage> {
  return template({ ...statusEmailView(order, store), previous, closedBecause });
}
