/**
 * The storefront's shared chunk holds only the modules vite.config.ts names (record 056): a new
 * component, an admin's or a driver's above all, never lands in a shopper's first load by default.
 */
import path from "node:path";
import { expect, it } from "vitest";
import { inStorefrontChunk } from "../../vite.config.ts";

const app = (file: string) => path.join(import.meta.dirname, "../../app", file);

it("takes the named storefront modules, with or without a query", () => {
  for (const file of ["components/store-header.tsx", "components/ui/button.tsx", "utils/money.ts"]) {
    expect(inStorefrontChunk(app(file)), file).toBe(true);
  }
  expect(inStorefrontChunk(`${app("components/ui/icon.tsx")}?v=1`)).toBe(true);
});

it("leaves out any module it does not name: new components, admin, driver, on-demand code", () => {
  for (const file of [
    "components/new-widget.tsx",
    "components/widgets/new-widget.tsx",
    "components/ui/new-dialog.tsx",
    "components/admin/order-card.tsx",
    "components/driver/driver-run.tsx",
    "components/cart-panel.tsx",
    "components/ui/sheet.tsx",
    "components/listing/paginated-grid.tsx",
    "features/catalog/new-rule.ts",
  ]) {
    expect(inStorefrontChunk(app(file)), file).toBe(false);
  }
});
