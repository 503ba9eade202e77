/** Answers of the loaders that serve one person's data as a file: never cached by anyone. */
import { PRIVATE_NO_STORE } from "#app/utils/cache-headers.ts";

/** The 404 of such a file (the customer, guest or signature is not there). */
export function privateNotFound() {
  return new Response("Not found", {
    status: 404,
    headers: { ...PRIVATE_NO_STORE, "Content-Type": "text/plain; charset=utf-8" },
  });
}

/** `value` as a JSON attachment named `filename`. */
export function jsonDownload(value: unknown, filename: string) {
  return new Response(JSON.stringify(value, null, 2), {
    headers: {
      ...PRIVATE_NO_STORE,
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
    },
  });
}
