import { createServer, type Server } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { capConnections } from "./connection-cap.server.ts";

/**
 * The cap on a real HTTP server on loopback: idle sockets (connected, silent; or kept alive after a
 * request) are closed, the longest idle first, before the cap is reached, so a new client is served.
 */
let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function start(maxConnections: number) {
  server = createServer((req, res) => {
    if (req.url === "/slow") {
      setTimeout(() => res.end("slow"), 400);
      return;
    }
    res.end("ok");
  });
  const cap = capConnections(server, maxConnections);
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, cap };
}

function openIdle(port: number) {
  return new Promise<Socket>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.on("error", reject);
  });
}

const closedByServer = (socket: Socket) =>
  new Promise<boolean>((resolve) => {
    if (socket.readableEnded || socket.destroyed) resolve(true);
    socket.once("end", () => resolve(true));
    socket.once("close", () => resolve(true));
  });

describe("MAX_CONNECTIONS and idle connections", () => {
  it("keeps at most the cap open: the longest-idle sockets go first, new clients are served", async () => {
    const { port, cap } = await start(50);
    const sockets: Socket[] = [];
    let most = 0;
    for (let i = 0; i < 200; i++) {
      sockets.push(await openIdle(port));
      await new Promise((resolve) => setImmediate(resolve));
      most = Math.max(most, cap.stats().open);
    }
    expect(most).toBeLessThanOrEqual(50);
    // The first ones (longest idle) were closed by the server; the last ones are still open.
    expect(await Promise.race([closedByServer(sockets[0] as Socket), delay(2_000, false)])).toBe(true);
    expect((sockets.at(-1) as Socket).destroyed).toBe(false);
    expect(cap.stats().reclaimed).toBeGreaterThanOrEqual(150);
    const response = await fetch(`http://127.0.0.1:${port}/`);
    expect(await response.text()).toBe("ok");
    for (const socket of sockets) socket.destroy();
    await expect.poll(() => cap.stats().open, { timeout: 5_000 }).toBe(0);
    expect(cap.stats().idle).toBe(0);
  });

  it("never closes a connection while it serves a request", async () => {
    const { port, cap } = await start(10);
    const slow = fetch(`http://127.0.0.1:${port}/slow`).then((response) => response.text());
    await new Promise((resolve) => setTimeout(resolve, 50));
    const idle: Socket[] = [];
    for (let i = 0; i < 40; i++) idle.push(await openIdle(port));
    expect(await slow).toBe("slow");
    expect(cap.stats().open).toBeLessThanOrEqual(10);
    for (const socket of idle) socket.destroy();
  });
});

function delay<T>(ms: number, value: T) {
  return new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
}
