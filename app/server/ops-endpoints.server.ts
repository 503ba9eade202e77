/**
 * Who may read /metrics (issue 12 item 7, decision 018): a peer on this machine talking to the server
 * directly, or anyone with `Authorization: Bearer $METRICS_TOKEN`. A request a proxy forwards is
 * never "on this machine", even when the proxy itself is: it carries X-Forwarded-For or Forwarded,
 * and with TRUST_PROXY its address (`req.ip`) is the outside client's.
 */
import { timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";

type Peer = {
  ip?: string | undefined;
  socket: { remoteAddress?: string | undefined };
  headers: Record<string, string | string[] | undefined>;
};

export function isLoopbackAddress(address: string | undefined) {
  if (!address) return false;
  const plain = address.startsWith("::ffff:") ? address.slice(7) : address;
  if (plain === "::1") return true;
  return isIP(plain) === 4 && plain.startsWith("127.");
}

/** `allowed`; `unauthorized` (401: a token is configured and was not given); `hidden` (404). */
export function metricsAccess(req: Peer, token: string | undefined): "allowed" | "unauthorized" | "hidden" {
  const authorization = req.headers.authorization;
  if (token && typeof authorization === "string" && authorization.startsWith("Bearer ")) {
    const given = Buffer.from(authorization.slice(7).trim());
    const expected = Buffer.from(token);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return "allowed";
    return "unauthorized";
  }
  const forwarded = req.headers["x-forwarded-for"] !== undefined || req.headers.forwarded !== undefined;
  if (!forwarded && isLoopbackAddress(req.socket.remoteAddress) && isLoopbackAddress(req.ip))
    return "allowed";
  return token ? "unauthorized" : "hidden";
}
