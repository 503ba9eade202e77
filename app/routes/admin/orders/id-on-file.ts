import { auditBy } from "#app/features/audit/audit.server.ts";
import { revokeIdOnFile, verifyIdOnFile } from "#app/features/media/id-on-file.server.ts";
import { adminForm, requireAdmin } from "#app/features/staff/guard.server.ts";
import { redirectWithToast } from "#app/utils/toast.server.ts";
import type { Route } from "./+types/id-on-file";

const REFUSED = {
  "not-found": "This order's ID is no longer on file.",
  expired: "That expiry date has passed: the ID cannot be kept on file.",
  "invalid-date": "Please enter the ID's expiry date.",
} as const;

/** Back to the order list the form was on (an admin path only), at the order's card. */
function backTo(form: FormData, orderId: string) {
  const given = form.get("returnTo");
  const path =
    typeof given === "string" && /^\/admin\/[\w/-]*(\?[^#]*)?$/.test(given) ? given : "/admin/orders";
  return `${path}#order-${orderId}`;
}

/**
 * Staff verify the ID a customer asked to keep on file and record its expiry, or take it off file
 * (record 058). Behind the admin guard (permission `orders`), audited with the change.
 */
export async function action({ params, context }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  const form = adminForm(context);
  const by = auditBy(admin, context);
  const intent = form.get("intent");
  const expiresOn = form.get("expiresOn");
  const result =
    intent === "verify"
      ? await verifyIdOnFile(params.id, typeof expiresOn === "string" ? expiresOn : "", by)
      : await revokeIdOnFile(params.id, by);
  const to = backTo(form, params.id);
  if (!result.ok) {
    return redirectWithToast(to, { type: "error", title: "ID on file", description: REFUSED[result.reason] });
  }
  return redirectWithToast(to, {
    type: "success",
    title: intent === "verify" ? "ID kept on file" : "ID taken off file",
    description:
      intent === "verify"
        ? "The customer's next orders use this ID photo until it expires."
        : "The photo on file is deleted; the customer uploads an ID photo again next time.",
  });
}
