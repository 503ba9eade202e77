import type { ConfirmAccessResult } from "#app/features/staff/sudo.server.ts";

/** The status code a refused re-check of the password (and code) is answered with. */
export function confirmAccessRefusedStatus(result: Extract<ConfirmAccessResult, { ok: false }>) {
  return result.refused === "too-many-tries" ? 429 : 401;
}
