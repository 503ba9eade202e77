/**
 * The two order e-mails (decision 12): a confirmation to the customer and a new-order notice to
 * the shop. Pure functions of the order: HTML and plain text. No ID image is ever attached.
 */
import { formatDeliveryDate } from "#app/features/checkout/delivery-slots.ts";
import { formatCents } from "#app/utils/money.ts";

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

export type StoreEmailSettings = {
  storeName: string;
  storePhone: string;
  storeEmail: string;
  publicUrl: string;
};

export type EmailMessage = { subject: string; text: string; html: string };

export function shortOrderId(id: string) {
  return id.slice(0, 8);
}

function escapeHtml(value: string) {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

function itemLine(item: OrderEmailItem) {
  return `${item.quantity} × ${item.productName} (${item.sizeLabel}) — ${formatCents(item.totalPriceCents)}`;
}

const FONT = "font-family:Helvetica,Arial,sans-serif;color:#1c2420;";

function htmlLayout(storeName: string, heading: string, body: string) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(heading)}</title></head>
<body style="margin:0;padding:0;background:#fbf9f5;${FONT}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#fbf9f5;padding:24px 0;"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border:1px solid #ece3d3;border-radius:12px;">
<tr><td style="background:#143a2b;color:#fbf9f5;padding:20px 24px;border-radius:12px 12px 0 0;font-size:20px;font-weight:bold;">${escapeHtml(storeName)}</td></tr>
<tr><td style="padding:24px;${FONT}font-size:15px;line-height:1.5;">
<h1 style="margin:0 0 16px;font-size:22px;">${escapeHtml(heading)}</h1>
${body}
</td></tr></table></td></tr></table></body></html>`;
}

function itemsTableHtml(data: OrderEmailData) {
  const rows = data.items
    .map(
      (item) =>
        `<tr><td style="padding:6px 0;border-bottom:1px solid #f6f1e8;">${item.quantity} × ${escapeHtml(item.productName)} <span style="color:#5b6660;">(${escapeHtml(item.sizeLabel)})</span></td><td align="right" style="padding:6px 0;border-bottom:1px solid #f6f1e8;white-space:nowrap;">${formatCents(item.totalPriceCents)}</td></tr>`,
    )
    .join("");
  return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:8px 0 16px;">${rows}<tr><td style="padding:8px 0;font-weight:bold;">Total</td><td align="right" style="padding:8px 0;font-weight:bold;">${formatCents(data.totalAmountCents)}</td></tr></table>`;
}

function detailRowsHtml(rows: [string, string][]) {
  return `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 16px;">${rows
    .map(
      ([label, value]) =>
        `<tr><td style="padding:3px 16px 3px 0;color:#5b6660;vertical-align:top;">${escapeHtml(label)}</td><td style="padding:3px 0;">${escapeHtml(value)}</td></tr>`,
    )
    .join("")}</table>`;
}

function deliveryWhen(data: OrderEmailData) {
  return `${formatDeliveryDate(data.deliveryDate)}, ${data.deliveryTime}`;
}

export function thankYouUrl(publicUrl: string, token: string) {
  return `${publicUrl}/thank-you?order=${encodeURIComponent(token)}`;
}

/** The customer's confirmation: items, total, slot, address, the cash reminder, a link back. */
export function customerConfirmationEmail(data: OrderEmailData, store: StoreEmailSettings): EmailMessage {
  const link = thankYouUrl(store.publicUrl, data.publicToken);
  const subject = `Your ${store.storeName} order #${shortOrderId(data.id)} is received`;
  const text = [
    `Hi ${data.customerName},`,
    "",
    `Thank you for your order with ${store.storeName}. We have received it and will call you to confirm delivery.`,
    "",
    `Order #${shortOrderId(data.id)}`,
    ...data.items.map(itemLine),
    `Total: ${formatCents(data.totalAmountCents)}`,
    "",
    `Delivery: ${deliveryWhen(data)} (in-person delivery)`,
    `Address: ${data.deliveryAddress}`,
    "",
    "Cash on Delivery: payment is due at delivery. Please prepare the exact amount in cash.",
    "Have your ID ready: you must be 21 or older, and we check your ID in person.",
    "",
    `View your order: ${link}`,
    "",
    `Questions? Call ${store.storePhone} or write to ${store.storeEmail}.`,
    `— ${store.storeName}`,
  ].join("\n");
  const html = htmlLayout(
    store.storeName,
    "Thank you for your order!",
    `<p style="margin:0 0 16px;">Hi ${escapeHtml(data.customerName)}, we have received your order <strong>#${shortOrderId(data.id)}</strong> and will call you to confirm delivery.</p>
${itemsTableHtml(data)}
${detailRowsHtml([
  ["Delivery", `${deliveryWhen(data)} (in-person delivery)`],
  ["Address", data.deliveryAddress],
])}
<p style="margin:0 0 8px;padding:12px 16px;background:#fbefd4;border-radius:8px;"><strong>Cash on Delivery</strong><br>Payment due at delivery. Please prepare the exact amount in cash, and have your ID ready: you must be 21 or older.</p>
<p style="margin:24px 0;"><a href="${escapeHtml(link)}" style="display:inline-block;background:#143a2b;color:#fbf9f5;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:bold;">View your order</a></p>
<p style="margin:0;color:#5b6660;font-size:13px;">Questions? Call ${escapeHtml(store.storePhone)} or write to ${escapeHtml(store.storeEmail)}.</p>`,
  );
  return { subject, text, html };
}

/** The shop's notice: everything staff need to call, confirm and deliver; a link to the admin. */
export function shopNotificationEmail(data: OrderEmailData, store: StoreEmailSettings): EmailMessage {
  const adminLink = `${store.publicUrl}/admin/orders`;
  const subject = `New order #${shortOrderId(data.id)}: ${formatCents(data.totalAmountCents)} for ${deliveryWhen(data)}`;
  const idLine = data.hasIdPhoto
    ? "ID photo: uploaded (view it in the admin; it is never sent by e-mail)"
    : "ID photo: NOT uploaded (check ID at the door)";
  const text = [
    `New order #${shortOrderId(data.id)} (${data.id})`,
    "",
    `Customer: ${data.customerName}`,
    `Phone: ${data.phone}`,
    `Email: ${data.userEmail}`,
    `Delivery: ${deliveryWhen(data)}`,
    `Address: ${data.deliveryAddress}`,
    `Notes: ${data.notes ?? "—"}`,
    idLine,
    "",
    ...data.items.map(itemLine),
    `Total (cash on delivery): ${formatCents(data.totalAmountCents)}`,
    "",
    `Open the incoming orders: ${adminLink}`,
  ].join("\n");
  const html = htmlLayout(
    store.storeName,
    `New order #${shortOrderId(data.id)}`,
    `${detailRowsHtml([
      ["Customer", data.customerName],
      ["Phone", data.phone],
      ["Email", data.userEmail],
      ["Delivery", deliveryWhen(data)],
      ["Address", data.deliveryAddress],
      ["Notes", data.notes ?? "—"],
      [
        "ID photo",
        data.hasIdPhoto ? "Uploaded (view it in the admin)" : "Not uploaded: check ID at the door",
      ],
    ])}
${itemsTableHtml(data)}
<p style="margin:0 0 16px;">Cash on delivery: collect <strong>${formatCents(data.totalAmountCents)}</strong>.</p>
<p style="margin:24px 0 0;"><a href="${escapeHtml(adminLink)}" style="display:inline-block;background:#143a2b;color:#fbf9f5;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:bold;">Open incoming orders</a></p>`,
  );
  return { subject, text, html };
}
