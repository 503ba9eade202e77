/**
 * Tells "the database cannot be reached right now" (a restart, a failover, a dropped connection)
 * from every other error, so the app can answer 503 with Retry-After instead of a 500, and checkout
 * can say that nothing was placed. Drizzle wraps driver errors: the whole `cause` chain is checked.
 */

/** Node socket errors of a lost or refused connection. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
]);

/**
 * SQLSTATEs of a server going away or refusing work: class 08 (connection exception), 57P01
 * admin_shutdown (pg_terminate_backend, a restart), 57P02 crash_shutdown, 57P03 cannot_connect_now,
 * 53300 too_many_connections.
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;

/** node-postgres's own messages for a connection that is gone or never came. */
const DRIVER_MESSAGES = [
  "Connection terminated",
  "not queryable",
  "timeout exceeded when trying to connect",
  "Client was closed",
  "Cannot use a pool after calling end",
  "terminating connection",
];

export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth++) {
    if (typeof current !== "object") return false;
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === "string" && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
    if (typeof message === "string" && DRIVER_MESSAGES.some((text) => message.includes(text))) return true;
    current = cause;
  }
  return false;
}

/** Seconds a client is asked to wait before trying again. */
export const RETRY_AFTER_SECONDS = 30;

/** The plain page a visitor gets while the database is away: no stack, no details. */
export function databaseUnavailablePage(storeName: string, requestId?: string) {
  const name = storeName.replace(/[<>&"]/g, "");
  const reference = requestId ? `<p><small>Reference: ${requestId.replace(/[^\w-]/g, "")}</small></p>` : "";
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${name} will be right back</title>
<style>html{background:#faf8f3}body{font-family:system-ui,sans-serif;max-width:32rem;margin:15vh auto;padding:0 1.25rem;color:#1c2b22;line-height:1.5}h1{font-size:1.5rem;color:#1f4d3a}a{color:#1f4d3a;font-weight:600}</style></head>
<body><h1>We'll be right back</h1><p>${name} can't load this page just now. Please try again in a minute.</p>${reference}<p><a href="/shop">Back to the shop</a></p></body>
</html>`;
}
