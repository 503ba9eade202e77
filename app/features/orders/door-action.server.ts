/**
 * The phone's 'Delivered' and 'Could not deliver' posted as plain forms (`/driver`, record 051):
 * the form read into the shared action (`driver-actions.schema.ts`) and applied by
 * `recordDelivery` / `recordFailedDelivery`. The route turns the answer into a status code.
 */
import type { AuditBy } from "#app/features/audit/audit.server.ts";
import { recordDelivery, recordFailedDelivery } from "./delivery-proof.server.ts";
import { cashCents } from "./delivery-proof.ts";
import { driverActionSchema } from "./driver-actions.schema.ts";

export type DoorActionAnswer =
  | { ok: true; description: string }
  | { ok: false; description: string; status: number };

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

function actionOf(form: FormData) {
  const orderId = field(form, "orderId");
  if (field(form, "intent") === "deliver") {
    return driverActionSchema.safeParse({
      kind: "deliver",
      orderId,
      proof: {
        dateOfBirth: field(form, "dateOfBirth"),
        nameMatches: form.get("nameMatches") === "on",
        cashReceivedCents: cashCents(field(form, "cashReceived")) ?? -1,
        signaturePng: field(form, "signaturePng"),
      },
    });
  }
  const note = field(form, "note").trim();
  return driverActionSchema.safeParse({
    kind: "fail",
    orderId,
    reason: field(form, "reason"),
    ...(note ? { note } : {}),
  });
}

/** Which part of a 'Delivered' form is missing or wrong, in the driver's words. */
function formProblem(form: FormData) {
  if (field(form, "intent") === "fail") return "Choose why the order could not be delivered";
  if (form.get("nameMatches") !== "on") return "Check that the name on the ID is the order's";
  if (!field(form, "dateOfBirth")) return "Enter the date of birth shown on the ID";
  if (cashCents(field(form, "cashReceived")) === null) return "Enter the cash received";
  if (!field(form, "signaturePng").startsWith("data:image/png;base64,"))
    return "Ask the customer to sign on the screen";
  return "Check the ID, the cash and the signature";
}

export async function doorAction(form: FormData, driverId: string, by: AuditBy): Promise<DoorActionAnswer> {
  const parsed = actionOf(form);
  if (!parsed.success) return { ok: false, description: formProblem(form), status: 400 };
  const action = parsed.data;
  if (action.kind === "deliver") {
    const result = await recordDelivery({ driverId, orderId: action.orderId, proof: action.proof, by });
    return result.ok
      ? { ok: true, description: "Delivered" }
      : { ok: false, description: result.message, status: result.conflict === "invalid" ? 400 : 409 };
  }
  if (action.kind !== "fail") return { ok: false, description: "Unknown action", status: 400 };
  const result = await recordFailedDelivery({
    driverId,
    orderId: action.orderId,
    reason: action.reason,
    note: action.note,
    by,
  });
  return result.ok
    ? { ok: true, description: "Could not deliver: the order goes back to the store" }
    : { ok: false, description: result.message, status: result.conflict === "invalid" ? 400 : 409 };
}
