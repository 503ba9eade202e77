/**
 * The actions the audit log records, with how they read to people (P-27). Plain data, safe
 * in the browser: the audit page's filter suggests them and the order history names them.
 * Every action written anywhere has its label here (app/features/audit/audit-actions.test.ts checks it).
 */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  "id_photo.viewed": "Viewed the ID photo",
  "id_on_file.verified": "Verified the ID and kept it on file",
  "id_on_file.revoked": "Took the ID off file",
  "id_on_file.removed": "The customer removed their ID from file",
  "order.status_changed": "Changed the status",
  "order.reopened": "Reopened",
  "order.driver_assigned": "Assigned a driver",
  "order.delivery_moved": "Moved to another delivery time",
  "order.delivery_proof": "Delivered with ID check, cash and signature",
  "order.delivery_failed": "Could not deliver",
  "order.signature_viewed": "Viewed the customer's signature",
  "orders.exported": "Exported orders (CSV)",
  "product.created": "Created a product",
  "product.updated": "Edited a product",
  "product.price_changed": "Changed prices",
  "product.deleted": "Deleted a product",
  "product.archived": "Archived a product",
  "product.restored": "Restored a product",
  "stock.changed": "Changed stock",
  "stock.adopted": "Recorded stock set outside the ledger",
  "catalogue.imported": "Imported the catalogue (CSV)",
  "catalogue.exported": "Exported the catalogue (CSV)",
  "settings.delivery_changed": "Changed delivery times",
  "settings.zone_saved": "Saved a delivery zone",
  "settings.closure_added": "Closed for deliveries",
  "settings.closure_removed": "Reopened for deliveries",
  "settings.limits_changed": "Changed purchase limits",
  "settings.contact_verification_changed": "Changed the verified phone before orders",
  "audit.exported": "Exported the audit log (CSV)",
  "audit.purged": "Deleted events past their retention",
  "sign_in.succeeded": "Signed in",
  "sign_in.failed": "Failed to sign in",
  "session.revoked": "Signed out another session",
  "session.reauthenticated": "Confirmed it was them (password and code)",
  "two_factor.enrolled": "Turned on two-factor sign-in",
  "two_factor.reset": "Reset two-factor sign-in",
  "two_factor.recovery_code_used": "Signed in with a recovery code",
  "two_factor.recovery_codes_regenerated": "Made new recovery codes",
  "staff.invited": "Invited a staff member",
  "staff.invitation_resent": "Resent an invitation",
  "staff.invitation_revoked": "Withdrew an invitation",
  "staff.invitation_accepted": "Accepted an invitation",
  "staff.password_changed": "Changed their password",
  "staff.role_changed": "Changed a role",
  "staff.deactivated": "Deactivated a staff member",
  "settings.drivers_two_factor": "Changed two-factor sign-in for drivers",
  "settings.id_photo_key_backed_up": "Confirmed the ID photo key is backed up",
  "cash.float_set": "Took a cash float",
  "cash.handed_in": "Handed in the shift's cash",
  "cash.drop_confirmed": "Confirmed a driver's cash drop",
  "run.manifest_frozen": "Started a run (manifest)",
  "customer.deleted": "A customer deleted their account",
  "customer.note-saved": "Saved a staff note on a customer",
  "customer.exported": "Exported a customer's data on request",
  "customer.erased": "Erased a customer's data on request",
};

export const AUDIT_FILTER_KEYS = ["actor", "action", "targetType", "targetId", "from", "to"] as const;
/** The audit page's filters: actor (a staff id), action, target type and id, store days from/to. */
export type AuditFilters = { [key in (typeof AUDIT_FILTER_KEYS)[number]]?: string };

/** One event as the audit page shows it. */
export type AuditRow = {
  id: string;
  createdAt: string;
  actorEmail: string | null;
  actorRole: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  details: unknown;
  ipAddress: string | null;
  requestId: string | null;
};

export function auditActionLabel(action: string) {
  return AUDIT_ACTION_LABELS[action] ?? action;
}

/** A short line of what changed, from an event's details (status from → to, prices, driver). */
export function auditSummary(action: string, details: unknown): string {
  if (!details || typeof details !== "object") return "";
  const value = details as Record<string, unknown>;
  if (action === "order.status_changed" || action === "order.reopened") {
    const reason = typeof value.reason === "string" ? `, reason: ${value.reason}` : "";
    return `${String(value.from)} → ${String(value.to)}${reason}`;
  }
  if (action === "order.driver_assigned") return value.driver ? `to ${String(value.driver)}` : "to nobody";
  if (
    (action === "cash.handed_in" || action === "cash.drop_confirmed") &&
    typeof value.differenceCents === "number"
  ) {
    const difference = value.differenceCents;
    const amount = `$${(Math.abs(difference) / 100).toFixed(2)}`;
    return difference === 0 ? "even" : `${difference < 0 ? "short" : "over"} ${amount}`;
  }
  if (action === "order.delivery_moved") return `${String(value.from)} → ${String(value.to)}`;
  if (action === "product.price_changed" && Array.isArray(value.prices)) {
    const name = typeof value.name === "string" ? `${value.name}: ` : "";
    return `${name}${value.prices
      .map((price: { size?: string; from?: number | null; to?: number }) => {
        const from = typeof price.from === "number" ? `$${(price.from / 100).toFixed(2)}` : "new";
        const to = typeof price.to === "number" ? `$${(price.to / 100).toFixed(2)}` : "";
        return `${price.size ?? ""} ${from} → ${to}`;
      })
      .join(", ")}`;
  }
  if (typeof value.name === "string") return value.name;
  return "";
}
