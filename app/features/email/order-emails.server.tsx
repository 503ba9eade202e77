/**
 * The two order e-mails (decision 12): a confirmation to the customer and a new-order notice to
 * the shop. React components (decision 021): each renders the HTML part, and the text part is read
 * from that HTML, so the two say the same. No ID image is ever attached.
 */
import { formatDeliveryDate } from "#app/features/checkout/delivery-slots.ts";
import { formatCents } from "#app/utils/money.ts";
import {
  type AmountRow,
  AmountTable,
  ButtonLink,
  DetailRows,
  EMAIL_COLORS,
  EmailLayout,
  type EmailMessage,
  Notice,
  Paragraph,
  renderEmail,
  type StoreEmailSettings,
} from "./email-layout.server.tsx";

export type { EmailMessage, StoreEmailSettings };

export type OrderEmailItem = {
  productName: string;
  sizeLabel: string;
  quantity: number;
  unitPriceCents: number;
  totalPriceCents: number;
};

export type OrderEmailData = {
  id: string;
  publicToken: string;
  customerName: string;
  userEmail: string;
  phone: string;
  deliveryAddress: string;
  deliveryDate: string;
  deliveryTime: string;
  totalAmountCents: number;
  notes: string | null;
  hasIdPhoto: boolean;
  items: OrderEmailItem[];
};

type OrderEmailProps = { order: OrderEmailData; store: StoreEmailSettings };

export function shortOrderId(id: string) {
  return id.slice(0, 8);
}

export function thankYouUrl(publicUrl: string, token: string) {
  return `${publicUrl}/thank-you?order=${encodeURIComponent(token)}`;
}

function deliveryWhen(order: OrderEmailData) {
  return `${formatDeliveryDate(order.deliveryDate)}, ${order.deliveryTime}`;
}

/** The order's lines and its total: `2 × Blue Dream (3.5g) — $85.00`, then `{totalLabel}: $85.00`. */
function OrderLines(props: { order: OrderEmailData; caption?: string; totalLabel: string }) {
  const rows: AmountRow[] = props.order.items.map((item) => ({
    label: (
      <>
        {item.quantity} × {item.productName}{" "}
        <span style={{ color: EMAIL_COLORS.muted }}>({item.sizeLabel})</span>
      </>
    ),
    amount: formatCents(item.totalPriceCents),
    text: `${item.quantity} × ${item.productName} (${item.sizeLabel}) — ${formatCents(item.totalPriceCents)}`,
  }));
  const total = formatCents(props.order.totalAmountCents);
  rows.push({ label: props.totalLabel, amount: total, text: `${props.totalLabel}: ${total}`, bold: true });
  return <AmountTable caption={props.caption} rows={rows} />;
}

/** The customer's confirmation: items, total, slot, address, the cash reminder, a link back. */
export function CustomerConfirmation({ order, store }: OrderEmailProps) {
  return (
    <EmailLayout store={store} heading="Thank you for your order!">
      <Paragraph>Hi {order.customerName},</Paragraph>
      <Paragraph>
        Thank you for your order with {store.storeName}. We have received it and will call you to confirm
        delivery.
      </Paragraph>
      <OrderLines order={order} caption={`Order #${shortOrderId(order.id)}`} totalLabel="Total" />
      <DetailRows
        rows={[
          ["Delivery", `${deliveryWhen(order)} (in-person delivery)`],
          ["Address", order.deliveryAddress],
        ]}
      />
      <Notice>
        <strong>Cash on Delivery</strong>: payment is due at delivery. Please prepare the exact amount in
        cash.
        <br />
        Have your ID ready: you must be 21 or older, and we check your ID in person.
      </Notice>
      <ButtonLink href={thankYouUrl(store.publicUrl, order.publicToken)} label="View your order" />
      <Paragraph muted>
        Questions? Call {store.storePhone} or write to {store.storeEmail}.
        <br />— {store.storeName}
      </Paragraph>
    </EmailLayout>
  );
}

/** The shop's notice: everything staff need to call, confirm and deliver; a link to the admin. */
export function ShopNotification({ order, store }: OrderEmailProps) {
  return (
    <EmailLayout
      store={store}
      heading={`New order #${shortOrderId(order.id)}`}
      headingInText={`New order #${shortOrderId(order.id)} (${order.id})`}
    >
      <DetailRows
        rows={[
          ["Customer", order.customerName],
          ["Phone", order.phone],
          ["Email", order.userEmail],
          ["Delivery", deliveryWhen(order)],
          ["Address", order.deliveryAddress],
          ["Notes", order.notes ?? "—"],
          [
            "ID photo",
            order.hasIdPhoto
              ? "uploaded (view it in the admin; it is never sent by e-mail)"
              : "NOT uploaded (check ID at the door)",
          ],
        ]}
      />
      <OrderLines order={order} totalLabel="Total (cash on delivery)" />
      <Paragraph skipInText>
        Cash on delivery: collect <strong>{formatCents(order.totalAmountCents)}</strong>.
      </Paragraph>
      <ButtonLink href={`${store.publicUrl}/admin/orders`} label="Open the incoming orders" />
    </EmailLayout>
  );
}

export function customerConfirmationEmail(
  order: OrderEmailData,
  store: StoreEmailSettings,
): Promise<EmailMessage> {
  return renderEmail(
    `Your ${store.storeName} order #${shortOrderId(order.id)} is received`,
    <CustomerConfirmation order={order} store={store} />,
  );
}

export function shopNotificationEmail(
  order: OrderEmailData,
  store: StoreEmailSettings,
): Promise<EmailMessage> {
  return renderEmail(
    `New order #${shortOrderId(order.id)}: ${formatCents(order.totalAmountCents)} for ${deliveryWhen(order)}`,
    <ShopNotification order={order} store={store} />,
  );
}
