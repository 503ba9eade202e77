/**
 * A bound on client connections, so that file descriptors stay for the shop's own work (the
 * database, ID photos, backups, logs) whatever one client opens. One client holding 19,985 idle
 * sockets once brought the process to its open-file limit: every new connection, /healthz's and the
 * database's included, failed until they closed.
 *
 * - `server.maxConnections` (MAX_CONNECTIONS, below the open-file limit): Node closes a connection
 *   over it at once, before it costs more than its descriptor for a moment.
 * - Idle connections are reclaimed before that: a socket that has sent no request yet, or a
 *   keep-alive socket between requests. Past 90 % of the cap, the longest-idle ones are closed until
 *   80 % remain, so a shopper's new connection finds room while someone holds thousands open.
 *   A connection serving a request is never closed here.
 */
import type { Server } from "node:http";
import type { Socket } from "node:net";
import { log } from "#app/utils/logger.server.ts";

/** Reclaiming starts above this share of the cap, and stops at the lower one. */
const RECLAIM_ABOVE = 0.9;
const RECLAIM_DOWN_TO = 0.8;
/** At most one warning per this long: a flood would otherwise log once per connection. */
const WARN_EVERY_MS = 10_000;

export type ConnectionCap = {
  /** Connections open now, and how many idle ones were closed since start. */
  stats(): { open: number; idle: number; reclaimed: number };
};

export function capConnections(server: Server, maxConnections: number): ConnectionCap {
  server.maxConnections = maxConnections;
  const high = Math.max(1, Math.floor(maxConnections * RECLAIM_ABOVE));
  const low = Math.floor(maxConnections * RECLAIM_DOWN_TO);
  /** Idle sockets, the longest idle first (a Map keeps insertion order). */
  const idle = new Map<Socket, true>();
  let open = 0;
  let reclaimed = 0;
  let reclaimedSinceWarning = 0;
  let lastWarning = 0;

  function reclaim() {
    let excess = open - low;
    let closed = 0;
    for (const socket of idle.keys()) {
      if (excess <= 0) break;
      idle.delete(socket);
      socket.destroy();
      excess--;
      closed++;
    }
    if (closed === 0) return;
    reclaimed += closed;
    reclaimedSinceWarning += closed;
    const now = Date.now();
    if (now - lastWarning >= WARN_EVERY_MS) {
      log.warn("Near MAX_CONNECTIONS: closed idle connections", {
        closed: reclaimedSinceWarning,
        open: open - closed,
        maxConnections,
      });
      lastWarning = now;
      reclaimedSinceWarning = 0;
    }
  }

  server.on("connection", (socket: Socket) => {
    open++;
    idle.set(socket, true);
    socket.once("close", () => {
      open--;
      idle.delete(socket);
    });
    if (open > high) reclaim();
  });
  server.on("request", (req, res) => {
    const socket = req.socket;
    idle.delete(socket);
    res.once("close", () => {
      // Idle again (kept alive for the next request): now the most recently idle.
      if (!socket.destroyed) idle.set(socket, true);
    });
  });

  return { stats: () => ({ open, idle: idle.size, reclaimed }) };
}
