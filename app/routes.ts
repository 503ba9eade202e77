import { index, layout, prefix, type RouteConfig, route } from "@react-router/dev/routes";
import { CATEGORY_PAGES, EFFECT_PAGES } from "#app/features/catalog/storefront.ts";

// Category and effect pages: their slugs are written once, in features/catalog/storefront.ts; each
// page reads its slug from the route it matched (the loader's `pattern`), never from the URL.
const categoryPages = CATEGORY_PAGES.map((page) => page.slug);
const effectPages = Object.keys(EFFECT_PAGES);

export default [
  layout("routes/_store/layout.tsx", [
    index("routes/_store/home.tsx"),
    route("shop", "routes/_store/shop.tsx"),
    ...categoryPages.map((slug) => route(slug, "routes/_store/category.tsx", { id: `category-${slug}` })),
    ...effectPages.map((slug) => route(slug, "routes/_store/effect.tsx", { id: `effect-${slug}` })),
    route("product/:slug", "routes/_store/product.tsx"),
    route("checkout", "routes/_store/checkout.tsx"),
    route("thank-you", "routes/_store/thank-you.tsx"),
    route("order-confirmation", "routes/_store/order-confirmation.tsx"),
    route("washington-dc-weed-delivery", "routes/_store/landing-dc.tsx"),
    route("privacy", "routes/_store/privacy.tsx"),
    route("terms", "routes/_store/terms.tsx"),
    route("age-verification", "routes/_store/age-verification.tsx"),
    route("account", "routes/_store/account/index.tsx"),
    route("account/sign-in", "routes/_store/account/sign-in.tsx"),
    route("account/data", "routes/_store/account/data.ts"),
    route("account/passkeys", "routes/_store/account/passkeys.ts"),
    route("*", "routes/_store/not-found.tsx"),
  ]),
  ...prefix("admin", [
    route("login", "routes/admin/login.tsx"),
    route("login/code", "routes/admin/login-code.tsx"),
    route("invitation/:token", "routes/admin/invitation.tsx"),
    layout("routes/admin/layout.tsx", [
      index("routes/admin/index.tsx"),
      route("dashboard", "routes/admin/dashboard.tsx"),
      route("today", "routes/admin/today/board.tsx"),
      route("today/pick-list", "routes/admin/today/pick-list.tsx"),
      route("today/driver-slips", "routes/admin/today/driver-slips.tsx"),
      route("today/cash-report", "routes/admin/today/cash-report.tsx"),
      route("today/cash-report/export", "routes/admin/today/cash-report-export.ts"),
      route("products", "routes/admin/products/list.tsx"),
      route("products/new", "routes/admin/products/new.tsx"),
      route("products/import", "routes/admin/products/import.tsx"),
      route("products/export", "routes/admin/products/export.ts"),
      route("products/edit/:id", "routes/admin/products/edit.tsx"),
      route("products/upload-image", "routes/admin/products/upload-image.ts"),
      route("orders", "routes/admin/orders/incoming.tsx"),
      route("orders/export", "routes/admin/orders/export.ts"),
      route("completed-orders", "routes/admin/orders/completed.tsx"),
      route("outbox", "routes/admin/outbox.tsx"),
      route("settings/limits", "routes/admin/settings/limits.tsx"),
      route("settings/delivery", "routes/admin/settings/delivery.tsx"),
      route("audit", "routes/admin/audit/log.tsx"),
      route("audit/export", "routes/admin/audit/export.ts"),
      route("logout", "routes/admin/logout.tsx"),
      route("staff", "routes/admin/staff.tsx"),
      route("customers", "routes/admin/customers/list.tsx"),
      route("customers/guest-export", "routes/admin/customers/guest-export.ts"),
      route("customers/:id", "routes/admin/customers/customer.tsx"),
      route("customers/:id/export", "routes/admin/customers/export.ts"),
      route("account", "routes/admin/account.tsx"),
      route("account/two-factor", "routes/admin/two-factor.tsx"),
      route("id-photos/:id", "routes/admin/id-photo.ts"),
      route("orders/:id/signature", "routes/admin/orders/signature.ts"),
      route("orders/:id/id-on-file", "routes/admin/orders/id-on-file.ts"),
    ]),
  ]),
  // The driver's run on the phone: behind the admin guard (its own middleware), without the admin chrome.
  route("driver", "routes/driver/run.tsx"),
  route("driver/manifest/:id", "routes/driver/manifest.tsx"),
  // The phone's offline queue (record 050): under /driver, where the phone's session cookie goes.
  route("driver/run.json", "routes/driver/run-json.ts"),
  route("driver/sync", "routes/driver/sync.ts"),
  route("api/cart-prices", "routes/resources/cart-prices.ts"),
  route("api/id-photo", "routes/resources/id-photo-upload.ts"),
  route("api/minimum-suggestions", "routes/resources/minimum-suggestions.ts"),
  route("api/sms/incoming", "routes/resources/sms-incoming.ts"),
  route("sitemap.xml", "routes/resources/sitemap.ts"),
  route("robots.txt", "routes/resources/robots.ts"),
  route("media/:file", "routes/resources/media.ts"),
  // `npm run bench` reference page: only in a bench build (BENCH_BUILD=1, app/server/bench.server.ts).
  ...(process.env.BENCH_BUILD === "1" ? [route("__bench/bare", "routes/resources/bench-bare.tsx")] : []),
] satisfies RouteConfig;
