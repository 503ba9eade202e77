/**
 * What each staff role may do (P-26), in one table. Every admin route and action names the
 * permission it needs (see `routePermissions` in the admin layout's guard); nothing else decides.
 */
import type { StaffRole } from "#app/db/schema.ts";

export const PERMISSIONS = [
  /** The dashboard's figures. */
  "dashboard",
  /** Products, images, stock, CSV import and export of the catalogue. */
  "products",
  /** Every order, its search, its status actions and reopening. */
  "orders",
  /** CSV exports of orders. */
  "orders.export",
  /** The today board of any date, pick list, driver slips and assigning drivers. */
  "today.plan",
  /** A driver's run: today's orders assigned to them or unassigned, their ID photos, status moves. */
  "today.run",
  /** Confirming drivers' cash drops and the daily cash report (P-33). */
  "cash",
  /** Customers: search, their orders, the staff note, export and erasure on request (record 057). */
  "customers",
  /** The outbox of e-mails. */
  "outbox",
  /** Delivery zones, capacity, closures and purchase limits. */
  "settings",
  /** Inviting, changing and deactivating staff; resetting a second factor. */
  "staff",
  /** Reading and exporting the audit log. */
  "audit",
  /** Confirming that the shop's generated ID photo key is backed up. */
  "keys",
  /** One's own sessions, password and second factor. */
  "account",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const ROLE_PERMISSIONS: Record<StaffRole, ReadonlySet<Permission>> = {
  owner: new Set(PERMISSIONS),
  manager: new Set(
    PERMISSIONS.filter(
      (permission) => permission !== "staff" && permission !== "audit" && permission !== "keys",
    ),
  ),
  driver: new Set<Permission>(["today.run", "account"]),
};

export function can(role: StaffRole, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].has(permission);
}

export const ROLE_LABELS: Record<StaffRole, string> = {
  owner: "Owner",
  manager: "Manager",
  driver: "Driver",
};
