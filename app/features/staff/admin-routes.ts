/**
 * The permission every admin route and every action intent needs (P-26), in one table keyed
 * by the route's pattern as React Router matches it. The admin guard (middleware on the admin
 * layout) reads it before any loader or action runs:
 *   - a pattern missing from the table is refused for everyone (403): a new admin route cannot be
 *     forgotten open, and tests/staff/admin-roles.test.ts fails for every route file under
 *     app/routes/admin that has no entry;
 *   - a post names its intent (form field `intent`); an intent missing from its route's `actions`
 *     is refused the same way. `"*"` stands for every post of a route whose posts all need the same
 *     permission. The guard reads the post's form once and hands that same form to the action
 *     (`adminForm`), so the intent it checked is the one the action carries out.
 * Finer scope (a driver sees only today's orders assigned to them or unassigned) is the feature
 * code's: `app/features/orders/driver-scope.server.ts`.
 * Plain data: the admin header builds its navigation from it too.
 */

import type { StaffRole } from "#app/db/schema.ts";
import { can, type Permission } from "./permissions.ts";

export type AdminRouteRule = {
  /** Needed to open the page, its `.data` request or the resource (GET). */
  read: Permission;
  /** A file or redirect, not a page: its refusal is a plain text 403. */
  resource?: true;
  /** Needed by each post, by its intent. */
  actions?: Readonly<Record<string, Permission>>;
  /**
   * Its posts are an upload its action reads as a stream, within its own size limits: the guard
   * reads nothing of the body (the CSRF token must come in the `X-CSRF-Token` header).
   */
  streamedBody?: true;
  /**
   * Fields its posts may repeat (a selection of orders): every other field, the intent first, must
   * come once, as on every admin form.
   */
  multiValueFields?: readonly string[];
};

/** The order lists' status moves: all of them need the orders permission. */
const ORDER_LIST_INTENTS = {
  confirm: "orders",
  "out-for-delivery": "orders",
  deliver: "orders",
  cancel: "orders",
  reopen: "orders",
  "check-in": "orders",
  "send-out-again": "orders",
} as const satisfies Record<string, Permission>;

/** The today board's moves: a driver may make three of them (P-26), on their run only. */
const BOARD_INTENTS = {
  confirm: "orders",
  "out-for-delivery": "today.run",
  deliver: "today.run",
  cancel: "today.run",
  reopen: "orders",
  "check-in": "orders",
  "send-out-again": "orders",
} as const satisfies Record<string, Permission>;

export const ADMIN_ROUTES = {
  /** Everyone signed in: the owner and managers go to the dashboard, a driver to their run. */
  "/admin": { read: "account", resource: true },
  "/admin/dashboard": { read: "dashboard", actions: { "confirm-key-backup": "keys" } },
  "/admin/today": {
    read: "today.run",
    actions: {
      ...BOARD_INTENTS,
      assign: "today.plan",
      "assign-slot": "today.plan",
      "confirm-drop": "cash",
    },
  },
  "/admin/today/pick-list": { read: "today.plan" },
  "/admin/today/cash-report": { read: "cash" },
  "/admin/today/cash-report/export": { read: "cash", resource: true },
  /** The run on the phone: every role that may drive (owners and managers too). */
  "/driver": {
    read: "today.run",
    actions: {
      "start-run": "today.run",
      "move-up": "today.run",
      "move-down": "today.run",
      deliver: "today.run",
      fail: "today.run",
      cancel: "today.run",
      "cash-float": "today.run",
      "cash-hand-in": "today.run",
    },
  },
  /** A run's manifest, printable: the driver's own; every driver's for those who plan (record 052). */
  "/driver/manifest/:id": { read: "today.run" },
  /** The phone's offline queue (record 050): its run as JSON, and the batch of queued actions. */
  "/driver/run.json": { read: "today.run", resource: true },
  "/driver/sync": { read: "today.run", resource: true, actions: { "*": "today.run" } },
  "/admin/today/driver-slips": { read: "today.plan" },
  "/admin/products": {
    read: "products",
    actions: {
      delete: "products",
      "fix-case": "products",
      archive: "products",
      restore: "products",
      stock: "products",
    },
  },
  "/admin/products/new": { read: "products", actions: { "*": "products" } },
  "/admin/products/import": { read: "products", actions: { preview: "products", import: "products" } },
  "/admin/products/export": { read: "products", resource: true },
  "/admin/products/edit/:id": { read: "products", actions: { "*": "products" } },
  "/admin/products/upload-image": {
    read: "products",
    resource: true,
    streamedBody: true,
    actions: { "*": "products" },
  },
  "/admin/orders": {
    read: "orders",
    actions: {
      ...ORDER_LIST_INTENTS,
      "bulk-confirm": "orders",
      "bulk-cancel": "orders",
      "bulk-print": "today.plan",
      "bulk-assign": "today.plan",
    },
    multiValueFields: ["orderIds", "slots"],
  },
  "/admin/orders/export": { read: "orders.export", resource: true },
  "/admin/completed-orders": { read: "orders", actions: ORDER_LIST_INTENTS },
  "/admin/outbox": { read: "outbox", actions: { "send-held": "outbox", "discard-held": "outbox" } },
  "/admin/settings/limits": { read: "settings", actions: { "*": "settings" } },
  "/admin/settings/delivery": {
    read: "settings",
    actions: {
      zone: "settings",
      activate: "settings",
      deactivate: "settings",
      settings: "settings",
      close: "settings",
      reopen: "settings",
    },
  },
  "/admin/logout": { read: "account", actions: { "*": "account" } },
  "/admin/id-photos/:id": { read: "today.run", resource: true },
  /** The customer's signature at the door (record 051): every opening audited. */
  "/admin/orders/:id/signature": { read: "orders", resource: true },
  /** Customers for staff (record 057): search, the note, export and erasure on request. */
  "/admin/customers": { read: "customers", actions: { "erase-guest": "customers" } },
  "/admin/customers/guest-export": { read: "customers", resource: true },
  "/admin/customers/:id": { read: "customers", actions: { note: "customers", erase: "customers" } },
  "/admin/customers/:id/export": { read: "customers", resource: true },
  /** Verify a customer's ID on file with its expiry, or take it off file (record 058): audited. */
  "/admin/orders/:id/id-on-file": {
    read: "orders",
    resource: true,
    actions: { verify: "orders", revoke: "orders" },
  },
  "/admin/audit": { read: "audit" },
  "/admin/audit/export": { read: "audit", resource: true },
  "/admin/staff": {
    read: "staff",
    actions: {
      invite: "staff",
      resend: "staff",
      revoke: "staff",
      "change-role": "staff",
      deactivate: "staff",
      "reset-two-factor": "staff",
      "drivers-two-factor": "staff",
    },
  },
  "/admin/account": {
    read: "account",
    actions: {
      "sign-out-others": "account",
      "end-session": "account",
      "confirm-access": "account",
      "recovery-codes": "account",
      "turn-off-two-factor": "account",
      "change-password": "account",
    },
  },
  "/admin/account/two-factor": { read: "account", actions: { "*": "account" } },
} as const satisfies Record<string, AdminRouteRule>;

export type AdminRoutePattern = keyof typeof ADMIN_ROUTES;

/** The rule of a matched pattern (React Router gives it without the leading slash: `admin/today`). */
export function adminRouteRule(pattern: string): AdminRouteRule | undefined {
  return (ADMIN_ROUTES as Record<string, AdminRouteRule>)[`/${pattern.replace(/^\/+/, "")}`];
}

/**
 * What a request needs: `null` when the table has no answer (refused for everyone). A post needs its
 * intent's permission and the route's own: the page it answers with shows the route's data.
 */
export function permissionsFor(
  rule: AdminRouteRule | undefined,
  method: string,
  intent: string | null,
): Permission[] | null {
  if (!rule) return null;
  if (method === "GET" || method === "HEAD") return [rule.read];
  const action = rule.actions?.[intent ?? ""] ?? rule.actions?.["*"];
  return action ? [rule.read, action] : null;
}

/** Whether `role` may open `pattern` (the navigation shows only these). */
export function canOpen(role: StaffRole, pattern: AdminRoutePattern) {
  return can(role, ADMIN_ROUTES[pattern].read);
}

export const ADMIN_NAVIGATION: readonly { to: AdminRoutePattern; label: string }[] = [
  { to: "/admin/today", label: "Today" },
  { to: "/driver", label: "My run" },
  { to: "/admin/dashboard", label: "Dashboard" },
  { to: "/admin/products", label: "Products" },
  { to: "/admin/orders", label: "Orders" },
  { to: "/admin/customers", label: "Customers" },
  { to: "/admin/outbox", label: "Outbox" },
  { to: "/admin/settings/limits", label: "Limits" },
  { to: "/admin/settings/delivery", label: "Delivery" },
  { to: "/admin/audit", label: "Audit" },
  { to: "/admin/staff", label: "Staff" },
  { to: "/admin/account", label: "Account" },
];

/** The navigation of `role`: only what it can open. */
export function navigationFor(role: StaffRole) {
  return ADMIN_NAVIGATION.filter((link) => canOpen(role, link.to));
}

/** Where `/admin` sends a role: the dashboard, or a driver's run. */
export function homeOf(role: StaffRole) {
  return can(role, "dashboard") ? "/admin/dashboard" : "/admin/today";
}
