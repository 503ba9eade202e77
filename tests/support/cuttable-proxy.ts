import { createConnection, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP proxy on loopback in front of a database server, which a test can cut (every connection
 * dropped, new ones refused: the database is unreachable), stall (every connection dropped, new
 * ones accepted and never answered: a server that hangs) and restore on the same port.
 */
export async function cuttableProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  let stalled = false;
  const open = () =>
    new Promise<void>((resolve) => {
      stalled = false;
      server = createServer((client) => {
        if (stalled) {
          sockets.add(client);
          client.on("close", () => sockets.delete(client));
          client.on("error", () => client.destroy());
          return;
        }
        const upstream = createConnection(target);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, "127.0.0.1", () => {
        const address = server?.address();
        if (typeof address === "object" && address) port = address.port;
        resolve();
      });
    });
  await open();
  return {
    get port() {
      return port;
    },
    async cut() {
      const closing = new Promise<void>((resolve) => server?.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closing;
    },
    /** Connections are accepted and never answered; `unstall` forwards new ones again. */
    stall() {
      stalled = true;
      for (const socket of sockets) socket.destroy();
    },
    unstall() {
      stalled = false;
      for (const socket of sockets) socket.destroy();
    },
    restore: open,
  };
}
