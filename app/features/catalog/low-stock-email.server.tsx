/**
 * The daily low-stock digest to the shop: every size at or below its threshold,
 * sold-out first, each with a link to its product's edit page. A React component like the order
 * e-mails (record 021); sent once a day, so it is rendered directly rather than from a template.
 */

import {
  type AmountRow,
  AmountTable,
  ButtonLink,
  EmailLayout,
  type EmailMessage,
  Paragraph,
  renderEmail,
  type StoreEmailSettings,
} from "#app/features/email/email-layout.server.tsx";
import { formatStoreDate } from "#app/utils/store-time.ts";

export type LowStockDigestData = {
  /** The store day, yyyy-MM-dd. */
  day: string;
  sizes: Array<{ productId: string; productName: string; size: string; inventoryCount: number }>;
  /** How many sizes are low in all (the list may be cut short). */
  total: number;
};

function stockText(count: number) {
  return count === 0 ? "Sold out" : `${count} left`;
}

export function LowStockDigest(props: { data: LowStockDigestData; store: StoreEmailSettings }) {
  const { data, store } = props;
  const rows: AmountRow[] = data.sizes.map((size) => {
    const link = `${store.publicUrl}/admin/products/edit/${size.productId}`;
    return {
      label: (
        <a href={link} style={{ color: "inherit" }}>
          {size.productName} ({size.size})
        </a>
      ),
      amount: stockText(size.inventoryCount),
      text: `${size.productName} (${size.size}) — ${stockText(size.inventoryCount)}: ${link}`,
    };
  });
  const more = data.total - data.sizes.length;
  return (
    <EmailLayout
      storeName={store.storeName}
      heading={`Low stock: ${data.total} ${data.total === 1 ? "size" : "sizes"}`}
    >
      <Paragraph>
        These sizes are at or below their low-stock threshold this morning ({formatStoreDate(data.day)}).
        Sold-out sizes come first.
      </Paragraph>
      <AmountTable rows={rows} />
      {more > 0 ? <Paragraph muted>…and {more} more on the dashboard.</Paragraph> : null}
      <ButtonLink href={`${store.publicUrl}/admin/dashboard`} label="Open the dashboard" />
    </EmailLayout>
  );
}

export function lowStockDigestEmail(
  data: LowStockDigestData,
  store: StoreEmailSettings,
): Promise<EmailMessage> {
  const soldOut = data.sizes.filter((size) => size.inventoryCount === 0).length;
  const subject = `Low stock at ${store.storeName}: ${data.total} ${data.total === 1 ? "size" : "sizes"}${soldOut ? ` (${soldOut} sold out)` : ""}`;
  return renderEmail(subject, <LowStockDigest data={data} store={store} />);
}
