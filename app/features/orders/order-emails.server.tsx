/**
 * The two order e-mails (P-12): a confirmation to the customer and a new-order notice to
 * the shop. React components (record 021): each renders the HTML part, and the text part is read
 * from that HTML, so the two say the same. They place the strings of an `OrderEmailView` and
 * nothing else, so `emailTemplate` can render them once per number of order lines and fill in each
 * order. No ID image is ever attached.
 */

import { changeToBringText } from "#app/features/delivery/cash-change.ts";
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
} from "#app/features/email/email-layout.server.tsx";
import { storeEmailSettings } from "#app/features/email/email-outbox.server.ts";
import { config } from "#app/utils/env.server.ts";
import { formatCents } from "#app/utils/money.ts";
import { formatPhone } from "#app/utils/phone.ts";
import { formatStoreDate } from "#app/utils/store-time.ts";
import { cashToPrepareText } from "./customer-payment.ts";
import type { OrderItemView, OrderSummary, OrderView } from "./orders.server.ts";

export type { EmailMessage, StoreEmailSettings };

export type OrderEmailItem = Pick<
  OrderItemView,
  "productName" | "sizeLabel" | "quantity" | "unitPriceCents" | "totalPriceCents"
>;

export type OrderEmailData = OrderSummary &
  Pick<OrderView, "publicToken" | "hasIdPhoto"> & {
    items: OrderEmailItem[];
    /** 'I'll pay with' in cents (P-24), when the shopper gave one. */
    payWithCents?: number | null;
  };

export function shortOrderId(id: string) {
  return id.slice(0, 8);
}

export function thankYouUrl(publicUrl: string, token: string) {
  return `${publicUrl}/thank-you?order=${encodeURIComponent(token)}`;
}

/** What the order e-mails show, every value formatted: the components only place these strings. */
export type OrderEmailView = {
  storeName: string;
  storePhone: string;
  storeEmail: string;
  id: string;
  shortId: string;
  customerName: string;
  phone: string;
  email: string;
  delivery: string;
  address: string;
  notes: string;
  idPhoto: string;
  total: string;
  /** The cash the customer has ready: the exact total, or what they pay with and the change. */
  cashToPrepare: string;
  /** 'Bring $13.50 change' and what the shopper pays with, or null (P-24). */
  change: Array<{ text: string; payWith: string }>;
  orderLink: string;
  adminLink: string;
  items: Array<{ quantity: string; name: string; size: string; total: string }>;
};

export function orderEmailView(order: OrderEmailData, store: StoreEmailSettings): OrderEmailView {
  return {
    storeName: store.storeName,
    storePhone: store.storePhone,
    storeEmail: store.storeEmail,
    id: order.id,
    shortId: shortOrderId(order.id),
    customerName: order.customerName,
    phone: formatPhone(order.phone),
    email: order.userEmail,
    delivery: `${formatStoreDate(order.deliveryDate)}, ${order.deliveryTime}`,
    address: order.deliveryAddress,
    notes: order.notes ?? "—",
    idPhoto: order.hasIdPhoto
      ? "uploaded (view it in the admin; it is never sent by e-mail)"
      : "NOT uploaded (check ID at the door)",
    total: formatCents(order.totalAmountCents),
    cashToPrepare: cashToPrepareText(order.totalAmountCents, order.payWithCents),
    change: changeView(order.totalAmountCents, order.payWithCents),
    orderLink: thankYouUrl(store.publicUrl, order.publicToken),
    adminLink: `${store.publicUrl}/admin/orders`,
    items: order.items.map((item) => ({
      quantity: String(item.quantity),
      name: item.productName,
      size: item.sizeLabel,
      total: formatCents(item.totalPriceCents),
    })),
  };
}

function changeView(totalCents: number, payWithCents: number | null | undefined) {
  const text = changeToBringText(totalCents, payWithCents);
  return text === null || payWithCents == null ? [] : [{ text, payWith: formatCents(payWithCents) }];
}

type OrderEmailProps = { view: OrderEmailView };

/**
 * The order's lines and its total: `2 × Blue Dream (3.5g) — $85.00`, then `{totalLabel}: $85.00`
 * (the order e-mails and the status e-mails).
 */
export function OrderLines(props: {
  view: Pick<OrderEmailView, "items" | "total">;
  caption?: string;
  totalLabel: string;
}) {
  const rows: AmountRow[] = props.view.items.map((item) => ({
    label: (
      <>
        {item.quantity} × {item.name} <span style={{ color: EMAIL_COLORS.muted }}>({item.size})</span>
      </>
    ),
    amount: item.total,
    text: `${item.quantity} × ${item.name} (${item.size}) — ${item.total}`,
  }));
  rows.push({
    label: props.totalLabel,
    amount: props.view.total,
    text: `${props.totalLabel}: ${props.view.total}`,
    bold: true,
  });
  return <AmountTable caption={props.caption} rows={rows} />;
}

/** The customer's confirmation: items, total, slot, address, the cash reminder, a link back. */
export function CustomerConfirmation({ view }: OrderEmailProps) {
  return (
    <EmailLayout storeName={view.storeName} heading="Thank you for your order!">
      <Paragraph>Hi {view.customerName},</Paragraph>
      <Paragraph>
        Thank you for your order with {view.storeName}. We have received it and will call you to confirm
        delivery.
      </Paragraph>
      <OrderLines view={view} caption={`Order #${view.shortId}`} totalLabel="Total" />
      <DetailRows
        rows={[
          ["Delivery", `${view.delivery} (in-person delivery)`],
          ["Address", view.address],
        ]}
      />
      <Notice>
        <strong>Cash on Delivery</strong>: payment is due at delivery. {view.cashToPrepare}
        <br />
        Have your ID ready: you must be 21 or older, and we check your ID in person.
      </Notice>
      <ButtonLink href={view.orderLink} label="View your order" />
      <Paragraph muted>
        Questions? Call {view.storePhone} or write to {view.storeEmail}.
        <br />— {view.storeName}
      </Paragraph>
    </EmailLayout>
  );
}

/** Who ordered, where and when: the first rows of every e-mail to the shop about an order. */
export function customerRows(
  view: Pick<OrderEmailView, "customerName" | "phone" | "email" | "delivery" | "address">,
): Array<[label: string, value: string]> {
  return [
    ["Customer", view.customerName],
    ["Phone", view.phone],
    ["Email", view.email],
    ["Delivery", view.delivery],
    ["Address", view.address],
  ];
}

/** The shop's notice: everything staff need to call, confirm and deliver; a link to the admin. */
export function ShopNotification({ view }: OrderEmailProps) {
  return (
    <EmailLayout
      storeName={view.storeName}
      heading={`New order #${view.shortId}`}
      headingInText={`New order #${view.shortId} (${view.id})`}
    >
      <DetailRows rows={[...customerRows(view), ["Notes", view.notes], ["ID photo", view.idPhoto]]} />
      <OrderLines view={view} totalLabel="Total (cash on delivery)" />
      <Paragraph skipInText>
        Cash on delivery: collect <strong>{view.total}</strong>.
      </Paragraph>
      {view.change.map((change) => (
        <Paragraph key="change">
          <strong>{change.text}</strong>: the customer pays with {change.payWith}.
        </Paragraph>
      ))}
      <ButtonLink href={view.adminLink} label="Open the incoming orders" />
    </EmailLayout>
  );
}

const customerTemplate = emailTemplate((view: OrderEmailView) => ({
  subject: `Your ${view.storeName} order #${view.shortId} is received`,
  element: <CustomerConfirmation view={view} />,
}));

const shopTemplate = emailTemplate((view: OrderEmailView) => ({
  subject: `New order #${view.shortId}: ${view.total} for ${view.delivery}`,
  element: <ShopNotification view={view} />,
}));

/**
 * The customer's confirmation of `order`. Rendered from a template of its shape (record 021):
 * an order costs two string fills, not two React renders and HTML-to-text conversions.
 */
export function customerConfirmationEmail(
  order: OrderEmailData,
  store: StoreEmailSettings,
): Promise<EmailMessage> {
  return customerTemplate(orderEmailView(order, store));
}

export function shopNotificationEmail(
  order: OrderEmailData,
  store: StoreEmailSettings,
): Promise<EmailMessage> {
  return shopTemplate(orderEmailView(order, store));
}

export type OrderEmailRow = {
  kind: "order-confirmation" | "order-notification";
  toAddress: string;
  subject: string;
  textBody: string;
  htmlBody: string;
};

/** The customer confirmation and the shop notification of an order, ready to queue. */
export async function orderEmailRows(
  data: OrderEmailData,
  options: { settings?: StoreEmailSettings; shopAddress?: string } = {},
): Promise<OrderEmailRow[]> {
  const settings = options.settings ?? storeEmailSettings();
  const shopAddress = options.shopAddress ?? config().ordersEmail;
  const [customer, shop] = await Promise.all([
    customerConfirmationEmail(data, settings),
    shopNotificationEmail(data, settings),
  ]);
  return [
    {
      kind: "order-confirmation",
      toAddress: data.userEmail,
      subject: customer.subject,
      textBody: customer.text,
      htmlBody: customer.html,
    },
    {
      kind: "order-notification",
      toAddress: shopAddress,
      subject: shop.subject,
      textBody: shop.text,
      htmlBody: shop.html,
    },
  ];
}
