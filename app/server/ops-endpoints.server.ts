/**
 * Who may read /metrics (record 018): a peer on this machine talking to the server directly, or
 * anyone with `Authorization: Bearer $METRICS_TOKEN`. A request a proxy forwards is never "on this
 * machine", even when the proxy itself is: it came from a peer TRUST_PROXY names (whatever headers
 * the proxy sent: one that passes the client in X-Real-IP alone sends no X-Forwarded-For), or it
 * carries X-Forwarded-For or Forwarded (a proxy nobody configured).
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

/**
 * `allowed`; `unauthorized` (401: a token is configured and was not given); `hidden` (404).
 * `isProxy` tells whether a peer address is one of TRUST_PROXY's (Express's compiled "trust proxy"
 * function at hop 0; with a hop count every peer is one).
 */
export function metricsAccess(
  req: Peer,
  token: string | undefined,
  isProxy: (address: string) => boolean,
): "allowed" | "unauthorized" | "hidden" {
  const authorization = req.headers.authorization;
  if (token && typeof authorization === "string" && authorization.startsWith("Bearer ")) {
    const given = Buffer.from(authorization.slice(7).trim());
    const expected = Buffer.from(token);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return "allowed";
    return "unauthorized";
  }
  const peer = req.socket.remoteAddress;
  const forwarded =
    peer === undefined ||
    isProxy(peer) ||
    req.headers["x-forwarded-for"] !== undefined ||
    req.headers.forwarded !== undefined;
  if (!forwarded && isLoopbackAddress(peer) && isLoopbackAddress(req.ip)) return "allowed";
  return token ? "unauthorized" : "hidden";
}
