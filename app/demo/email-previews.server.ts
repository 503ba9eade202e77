/**
 * Every e-mail of the shop with sample data, for `npm run email:preview` and the e-mail tests: a
 * typical order, and one with a very long product name, markup in the names, notes and address, and
 * several lines. A new e-mail gets its entries in EMAIL_PREVIEWS.
 */

import {
  type LowStockDigestData,
  lowStockDigestEmail,
} from "#app/features/catalog/low-stock-email.server.tsx";
import {
  customerConfirmationEmail,
  type EmailMessage,
  type OrderEmailData,
  type StoreEmailSettings,
  shopNotificationEmail,
} from "#app/features/orders/order-emails.server.tsx";
import { customerCancelledNotice, statusEmail } from "#app/features/orders/status-emails.server.tsx";
import { auditDigestEmail } from "#app/features/staff/audit-digest-email.server.tsx";
import { staffInvitationEmail } from "#app/features/staff/staff-invitation-email.server.tsx";

export const SAMPLE_STORE: StoreEmailSettings = {
  storeName: "Capital Grown",
  storePhone: "(202) 555-0142",
  storeEmail: "orders@capitalgrown.example",
  publicUrl: "https://shop.example",
};

export const LONG_PRODUCT_NAME = `Limited Reserve ${"Extra Long Cured Small Batch Indoor ".repeat(8)}Blue Dream <script>alert("x")</script> & Co.`;

export const SAMPLE_ORDERS: Record<"typical" | "hostile", OrderEmailData> = {
  typical: {
    id: "0f6b1c9e-1111-4222-8333-944445555666",
    publicToken: "tok_abcdefghijklmnopqrstuvwxyz0123",
    customerName: "Ada Lovelace",
    userEmail: "ada@example.com",
    phone: "(202) 555-0100",
    deliveryAddress: "1600 Example Ave NW, Washington, DC 20001",
    deliveryDate: "2026-11-23",
    deliveryTime: "2:00 PM-4:00 PM",
    totalAmountCents: 8500,
    notes: null,
    hasIdPhoto: true,
    items: [
      {
        productName: "Blue Dream",
        sizeLabel: "3.5g",
        quantity: 2,
        unitPriceCents: 4250,
        totalPriceCents: 8500,
      },
    ],
  },
  hostile: {
    id: "9a8b7c6d-2222-4333-8444-a55556666777",
    publicToken: "tok_<b>&\"'zyx",
    customerName: "Bob <script>alert('hi')</script> O'Neil & Sons",
    userEmail: "bob+orders@example.com",
    phone: "(571) 555-0199",
    deliveryAddress: "42 <b>Bold</b> St & 5th, Arlington, VA 22201",
    deliveryDate: "2026-12-01",
    deliveryTime: "6:00 PM-8:00 PM",
    totalAmountCents: 123_456,
    notes: 'Gate code <1234> & "ring twice"',
    hasIdPhoto: false,
    items: [
      {
        productName: LONG_PRODUCT_NAME,
        sizeLabel: "1/8 oz <small>",
        quantity: 3,
        unitPriceCents: 40_152,
        totalPriceCents: 120_456,
      },
      {
        productName: "Gummies",
        sizeLabel: "10 pack",
        quantity: 1,
        unitPriceCents: 3000,
        totalPriceCents: 3000,
      },
    ],
  },
};

export type EmailPreview = {
  /** The file name of the preview: `<name>.html` and `<name>.txt`. */
  name: string;
  render: (store: StoreEmailSettings) => Promise<EmailMessage>;
};

export const SAMPLE_LOW_STOCK: LowStockDigestData = {
  day: "2026-11-24",
  total: 3,
  sizes: [
    {
      productId: "0f6b1c9e-1111-4222-8333-944445555666",
      productName: "Blue Dream",
      size: "28g",
      inventoryCount: 0,
    },
    {
      productId: "0f6b1c9e-1111-4222-8333-944445555667",
      productName: LONG_PRODUCT_NAME,
      size: "1g",
      inventoryCount: 2,
    },
    {
      productId: "0f6b1c9e-1111-4222-8333-944445555668",
      productName: "Gummies",
      size: "10 pack",
      inventoryCount: 5,
    },
  ],
};

export const EMAIL_PREVIEWS: EmailPreview[] = [
  ...Object.entries(SAMPLE_ORDERS).flatMap(([sample, order]): EmailPreview[] => [
    {
      name: `order-confirmation-${sample}`,
      render: (store: StoreEmailSettings) => customerConfirmationEmail(order, store),
    },
    {
      name: `order-notification-${sample}`,
      render: (store: StoreEmailSettings) => shopNotificationEmail(order, store),
    },
    // The customer's e-mails after a status change (P-23).
    { name: `order-confirmed-${sample}`, render: (store) => statusEmail("confirmed", order, store) },
    {
      name: `order-out-for-delivery-${sample}`,
      render: (store) => statusEmail("out_for_delivery", order, store),
    },
    { name: `order-delivered-${sample}`, render: (store) => statusEmail("delivered", order, store) },
    {
      name: `order-cancelled-${sample}`,
      render: (store) =>
        statusEmail(
          "cancelled",
          order,
          store,
          sample === "typical" ? "No valid ID" : "Other: <b>storm</b> & flood",
        ),
    },
    {
      name: `order-cancelled-by-customer-${sample}`,
      render: (store) => customerCancelledNotice(order, store),
    },
  ]),
  {
    name: "low-stock-digest",
    render: (store: StoreEmailSettings) => lowStockDigestEmail(SAMPLE_LOW_STOCK, store),
  },
  {
    name: "staff-invitation",
    render: (store: StoreEmailSettings) =>
      staffInvitationEmail(
        {
          firstName: "Dana",
          role: "manager",
          link: `${store.publicUrl}/admin/invitation/sample`,
          validHours: 48,
        },
        store,
      ),
  },
  ...[null, { at: "1042", reason: "event 1042 was changed after it was recorded" }].map(
    (broken): EmailPreview => ({
      name: broken ? "audit-digest-broken" : "audit-digest",
      render: (store: StoreEmailSettings) =>
        auditDigestEmail(
          {
            day: "2026-11-24",
            lastId: "1187",
            lastHash: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            checked: 1187,
            broken,
          },
          store,
        ),
    }),
  ),
];
