/**
 * The customer's e-mails after the order (P-23): one for every status change — confirmed,
 * out for delivery, delivered (thanks and a receipt), cancelled (the reason in plain words) — and
 * the shop's notice when a customer cancels on their order page. React components (record 021)
 * rendered through `emailTemplate`; each links to the customer's order page.
 */
import type * as React from "react";
import {
  ButtonLink,
  DetailRows,
  EmailLayout,
  emailTemplate,
  Notice,
  Paragraph,
} from "#app/features/email/email-layout.server.tsx";
import {
  customerRows,
  type EmailMessage,
  type OrderEmailData,
  OrderLines,
  orderEmailView,
  type StoreEmailSettings,
} from "./order-emails.server.tsx";
import { cancelReasonForCustomer, type OrderStatus } from "./order-status.ts";

/** The statuses a customer hears about (every status a change can lead to). */
export type CustomerStatus = Exclude<OrderStatus, "pending">;

export type StatusEmailView = {
  storeName: string;
  storePhone: string;
  storeEmail: string;
  shortId: string;
  id: string;
  customerName: string;
  email: string;
  phone: string;
  delivery: string;
  address: string;
  total: string;
  /** The cash to have ready: the exact total, or what they pay with and the change. */
  cashToPrepare: string;
  orderLink: string;
  adminLink: string;
  /** Cancelled: why, in the customer's words; empty when no reason was given (its own template shape). */
  reason: string[];
  items: Array<{ quantity: string; name: string; size: string; total: string }>;
};

export function statusEmailView(
  order: OrderEmailData,
  store: StoreEmailSettings,
  cancelReason: string | null = null,
): StatusEmailView {
  const view = orderEmailView(order, store);
  return {
    storeName: view.storeName,
    storePhone: view.storePhone,
    storeEmail: view.storeEmail,
    shortId: view.shortId,
    id: view.id,
    customerName: view.customerName,
    email: view.email,
    phone: view.phone,
    delivery: view.delivery,
    address: view.address,
    total: view.total,
    cashToPrepare: view.cashToPrepare,
    orderLink: view.orderLink,
    adminLink: `${store.publicUrl}/admin/completed-orders`,
    reason: cancelReasonForCustomer(cancelReason) ? [cancelReasonForCustomer(cancelReason)] : [],
    items: view.items,
  };
}

type Props = { view: StatusEmailView };

function SignOff({ view }: Props) {
  return (
    <Paragraph muted>
      Questions? Call {view.storePhone} or write to {view.storeEmail}.
      <br />— {view.storeName}
    </Paragraph>
  );
}

/**
 * A status e-mail to the customer: the greeting, what the e-mail says (`children`), the link to the
 * order page and the sign-off.
 */
function CustomerEmail({ view, heading, children }: Props & { heading: string; children: React.ReactNode }) {
  return (
    <EmailLayout storeName={view.storeName} heading={heading}>
      <Paragraph>Hi {view.customerName},</Paragraph>
      {children}
      <ButtonLink href={view.orderLink} label="View your order" />
      <SignOff view={view} />
    </EmailLayout>
  );
}

/** The cash to have ready at the door, and the ID check, while the order is still to come. */
function PaymentDueNotice({ view, idCheck }: Props & { idCheck: string }) {
  return (
    <Notice>
      Payment is due at delivery. {view.cashToPrepare}
      <br />
      {`Have your ID ready: ${idCheck}`}
    </Notice>
  );
}

export function OrderConfirmedEmail({ view }: Props) {
  return (
    <CustomerEmail view={view} heading="Your order is confirmed">
      <Paragraph>
        Your order #{view.shortId} is confirmed for {view.delivery}. We will bring it to {view.address}.
      </Paragraph>
      <OrderLines view={view} caption={`Order #${view.shortId}`} totalLabel="Total (cash on delivery)" />
      <PaymentDueNotice view={view} idCheck="you must be 21 or older, and we check your ID in person." />
    </CustomerEmail>
  );
}

export function OutForDeliveryEmail({ view }: Props) {
  return (
    <CustomerEmail view={view} heading="Your order is on its way">
      <Paragraph>
        Your order #{view.shortId} is on its way to {view.address} ({view.delivery}).
      </Paragraph>
      <PaymentDueNotice view={view} idCheck="our driver checks that you are 21 or older." />
    </CustomerEmail>
  );
}

export function OrderDeliveredEmail({ view }: Props) {
  return (
    <CustomerEmail view={view} heading="Thank you for your order!">
      <Paragraph>
        Your order #{view.shortId} has been delivered. Thank you for shopping with {view.storeName}. Here is
        your receipt.
      </Paragraph>
      <OrderLines view={view} caption={`Receipt for order #${view.shortId}`} totalLabel="Paid in cash" />
      <DetailRows
        rows={[
          ["Delivered to", view.address],
          ["Delivery", view.delivery],
        ]}
      />
    </CustomerEmail>
  );
}

export function OrderCancelledEmail({ view }: Props) {
  return (
    <CustomerEmail view={view} heading="Your order is cancelled">
      <Paragraph>
        We're sorry: your order #{view.shortId} for {view.delivery} is cancelled
        {view.reason.map((reason) => ` because ${reason}`)}.
      </Paragraph>
      <OrderLines view={view} caption={`Order #${view.shortId}`} totalLabel="Total (not charged)" />
      <Paragraph>Nothing is due. You are welcome to place a new order at any time.</Paragraph>
    </CustomerEmail>
  );
}

export function OrderReturningEmail({ view }: Props) {
  return (
    <CustomerEmail view={view} heading="We could not deliver your order">
      <Paragraph>
        Our driver could not deliver your order #{view.shortId} for {view.delivery}
        {view.reason.map((reason) => ` (${reason})`)}. It is going back to the store.
      </Paragraph>
      <OrderLines view={view} caption={`Order #${view.shortId}`} totalLabel="Total (not charged)" />
      <Paragraph>We will call you to deliver it again or to cancel it. Nothing is due yet.</Paragraph>
    </CustomerEmail>
  );
}

/** To the shop: the customer cancelled their pending order on its page. */
export function CustomerCancelledNotice({ view }: Props) {
  return (
    <EmailLayout
      storeName={view.storeName}
      heading={`Order #${view.shortId} cancelled by the customer`}
      headingInText={`Order #${view.shortId} (${view.id}) cancelled by the customer`}
    >
      <DetailRows rows={customerRows(view)} />
      <OrderLines view={view} totalLabel="Total" />
      <Paragraph>The items are back in stock and the delivery time is free again.</Paragraph>
      <ButtonLink href={view.adminLink} label="Open the completed orders" />
    </EmailLayout>
  );
}

const templates = {
  confirmed: emailTemplate((view: StatusEmailView) => ({
    subject: `Your order is confirmed for ${view.delivery}`,
    element: <OrderConfirmedEmail view={view} />,
  })),
  out_for_delivery: emailTemplate((view: StatusEmailView) => ({
    subject: `Your order is on its way (#${view.shortId})`,
    element: <OutForDeliveryEmail view={view} />,
  })),
  delivered: emailTemplate((view: StatusEmailView) => ({
    subject: `Delivered: your receipt for order #${view.shortId}`,
    element: <OrderDeliveredEmail view={view} />,
  })),
  cancelled: emailTemplate((view: StatusEmailView) => ({
    subject: `Your order #${view.shortId} is cancelled`,
    element: <OrderCancelledEmail view={view} />,
  })),
  returning: emailTemplate((view: StatusEmailView) => ({
    subject: `We could not deliver your order #${view.shortId}`,
    element: <OrderReturningEmail view={view} />,
  })),
} satisfies Record<CustomerStatus, (view: StatusEmailView) => Promise<EmailMessage>>;

const shopCancelTemplate = emailTemplate((view: StatusEmailView) => ({
  subject: `Order #${view.shortId} cancelled by the customer (${view.delivery})`,
  element: <CustomerCancelledNotice view={view} />,
}));

/** The customer's e-mail for their order now being `status`. */
export function statusEmail(
  status: CustomerStatus,
  order: OrderEmailData,
  store: StoreEmailSettings,
  cancelReason: string | null = null,
): Promise<EmailMessage> {
  return templates[status](statusEmailView(order, store, cancelReason));
}

export function customerCancelledNotice(order: OrderEmailData, store: StoreEmailSettings) {
  return shopCancelTemplate(statusEmailView(order, store));
}
