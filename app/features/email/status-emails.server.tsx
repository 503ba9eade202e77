/**
 * The customer's e-mails after the order (decision 23): one for every status change — confirmed,
 * out for delivery, delivered (thanks and a receipt), cancelled (the reason in plain words) — and
 * the shop's notice when a customer cancels on their order page. React components (decision 021)
 * rendered through `emailTemplate`; each links to the customer's order page.
 */
import { cancelReasonForCustomer, type OrderStatus } from "#app/features/orders/order-status.ts";
import {
  type AmountRow,
  AmountTable,
  ButtonLink,
  DetailRows,
  EMAIL_COLORS,
  EmailLayout,
  type EmailMessage,
  emailTemplate,
  Notice,
  Paragraph,
  type StoreEmailSettings,
} from "./email-layout.server.tsx";
import { type OrderEmailData, orderEmailView } from "./order-emails.server.tsx";

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
    orderLink: view.orderLink,
    adminLink: `${store.publicUrl}/admin/completed-orders`,
    reason: cancelReasonForCustomer(cancelReason) ? [cancelReasonForCustomer(cancelReason)] : [],
    items: view.items,
  };
}

type Props = { view: StatusEmailView };

function Lines({ view, caption, totalLabel }: Props & { caption?: string; totalLabel: string }) {
  const rows: AmountRow[] = view.items.map((item) => ({
    label: (
      <>
        {item.quantity} × {item.name} <span style={{ color: EMAIL_COLORS.muted }}>({item.size})</span>
      </>
    ),
    amount: item.total,
    text: `${item.quantity} × ${item.name} (${item.size}) — ${item.total}`,
  }));
  rows.push({ label: totalLabel, amount: view.total, text: `${totalLabel}: ${view.total}`, bold: true });
  return <AmountTable caption={caption} rows={rows} />;
}

function SignOff({ view }: Props) {
  return (
    <Paragraph muted>
      Questions? Call {view.storePhone} or write to {view.storeEmail}.
      <br />— {view.storeName}
    </Paragraph>
  );
}

export function OrderConfirmedEmail({ view }: Props) {
  return (
    <EmailLayout storeName={view.storeName} heading="Your order is confirmed">
      <Paragraph>Hi {view.customerName},</Paragraph>
      <Paragraph>
        Your order #{view.shortId} is confirmed for {view.delivery}. We will bring it to {view.address}.
      </Paragraph>
      <Lines view={view} caption={`Order #${view.shortId}`} totalLabel="Total (cash on delivery)" />
      <Notice>
        Please have {view.total} in cash ready, and your ID: you must be 21 or older, and we check your ID in
        person.
      </Notice>
      <ButtonLink href={view.orderLink} label="View your order" />
      <SignOff view={view} />
    </EmailLayout>
  );
}

export function OutForDeliveryEmail({ view }: Props) {
  return (
    <EmailLayout storeName={view.storeName} heading="Your order is on its way">
      <Paragraph>Hi {view.customerName},</Paragraph>
      <Paragraph>
        Your order #{view.shortId} is on its way to {view.address} ({view.delivery}).
      </Paragraph>
      <Notice>
        Please have {view.total} in cash and your ID ready: our driver checks that you are 21 or older.
      </Notice>
      <ButtonLink href={view.orderLink} label="View your order" />
      <SignOff view={view} />
    </EmailLayout>
  );
}

export function OrderDeliveredEmail({ view }: Props) {
  return (
    <EmailLayout storeName={view.storeName} heading="Thank you for your order!">
      <Paragraph>Hi {view.customerName},</Paragraph>
      <Paragraph>
        Your order #{view.shortId} has been delivered. Thank you for shopping with {view.storeName}. Here is
        your receipt.
      </Paragraph>
      <Lines view={view} caption={`Receipt for order #${view.shortId}`} totalLabel="Paid in cash" />
      <DetailRows
        rows={[
          ["Delivered to", view.address],
          ["Delivery", view.delivery],
        ]}
      />
      <ButtonLink href={view.orderLink} label="View your order" />
      <SignOff view={view} />
    </EmailLayout>
  );
}

export function OrderCancelledEmail({ view }: Props) {
  return (
    <EmailLayout storeName={view.storeName} heading="Your order is cancelled">
      <Paragraph>Hi {view.customerName},</Paragraph>
      <Paragraph>
        We're sorry: your order #{view.shortId} for {view.delivery} is cancelled
        {view.reason.map((reason) => ` because ${reason}`)}.
      </Paragraph>
      <Lines view={view} caption={`Order #${view.shortId}`} totalLabel="Total (not charged)" />
      <Paragraph>Nothing is due. You are welcome to place a new order at any time.</Paragraph>
      <ButtonLink href={view.orderLink} label="View your order" />
      <SignOff view={view} />
    </EmailLayout>
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
      <DetailRows
        rows={[
          ["Customer", view.customerName],
          ["Phone", view.phone],
          ["Email", view.email],
          ["Delivery", view.delivery],
          ["Address", view.address],
        ]}
      />
      <Lines view={view} totalLabel="Total" />
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
