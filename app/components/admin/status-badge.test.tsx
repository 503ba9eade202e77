import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { StockMovementView } from "#app/features/catalog/stock.server.ts";
import { OPEN_STATUSES, STATUS_LABELS } from "#app/features/orders/order-status.ts";
import { StatusBadge } from "./status-badge.tsx";
import { orderHref } from "./stock-history.tsx";

describe("order statuses on admin screens", () => {
  it("badges read each status's label", () => {
    for (const [status, label] of Object.entries(STATUS_LABELS)) {
      expect(renderToString(<StatusBadge status={status} />)).toContain(`>${label}</`);
    }
    expect(renderToString(<StatusBadge status="out_for_delivery" />)).toContain(">Out for delivery</");
    expect(renderToString(<StatusBadge status="legacy" />)).toContain(">legacy</");
  });

  it("a stock movement links an open order to the incoming list, out for delivery included", () => {
    const href = (orderStatus: StockMovementView["orderStatus"]) => orderHref({ orderId: "o1", orderStatus });
    for (const status of OPEN_STATUSES) expect(href(status)).toBe("/admin/orders#order-o1");
    expect(href("delivered")).toBe("/admin/completed-orders#order-o1");
    expect(href("cancelled")).toBe("/admin/completed-orders#order-o1");
  });
});
