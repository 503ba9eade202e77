import {
  Agent,
  createServer,
  type IncomingMessage,
  request,
  type Server,
  type ServerResponse,
} from "node:http";
import { connect } from "node:net";
import { createReadableStreamFromReadable } from "@react-router/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_CHECKOUT_BODY_BYTES } from "#app/features/checkout/limits.ts";
import {
  BOUNDS_MESSAGES,
  bodyRuleFor,
  boundRequests,
  DEFAULT_BODY_LIMIT_BYTES,
  isFormContentType,
} from "./request-bounds.server.ts";

type Reached = { url: string; bodyBytes: number; error: string | null };

/** A real HTTP server: the middleware, then an "app" that reads the whole body (or not, for /checkout). */
let server: Server;
let port: number;
const reached: Reached[] = [];
const sockets: Array<{ bytesRead: () => number }> = [];

beforeAll(async () => {
  const bounds = boundRequests();
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    sockets.push({ bytesRead: () => req.socket.bytesRead });
    bounds(req, res, () => {
      const entry: Reached = { url: req.url ?? "", bodyBytes: 0, error: null };
      reached.push(entry);
      if (req.url === "/checkout") {
        // Like the checkout route behind React Router's adapter: the body becomes a web stream
        // at once, and the route refuses without reading it.
        createReadableStreamFromReadable(req);
        res.writeHead(413).end("route's own answer");
        return;
      }
      req.on("data", (chunk: Buffer) => {
        entry.bodyBytes += chunk.length;
      });
      req.on("error", (error) => {
        entry.error = error.name;
      });
      req.on("end", () => res.end(`read ${entry.bodyBytes}`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Writes `piece` again and again (up to 50 MB) until the server answers, as curl does. */
function keepSending(piece: Buffer | ((socket: ReturnType<typeof connect>) => void)) {
  return (socket: ReturnType<typeof connect>) => {
    let answered = false;
    let written = 0;
    socket.once("data", () => {
      answered = true;
    });
    const timer = setInterval(() => {
      if (answered || socket.destroyed || written > 50 * 1024 * 1024) return clearInterval(timer);
      if (typeof piece === "function") piece(socket);
      else socket.write(piece);
      written += 16 * 1024;
    }, 1);
    socket.on("close", () => clearInterval(timer));
  };
}

/** Sends raw bytes on one connection and collects everything the server answers until it closes. */
function raw(head: string, writeBody?: (socket: ReturnType<typeof connect>) => void) {
  return new Promise<{ response: string; serverRead: number }>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let response = "";
    const before = sockets.length;
    socket.on("data", (chunk) => {
      response += chunk.toString("latin1");
    });
    socket.on("error", () => {});
    socket.on("close", () => resolve({ response, serverRead: sockets[before]?.bytesRead() ?? 0 }));
    socket.write(head);
    writeBody?.(socket);
  });
}

const statusOf = (response: string) => Number(response.slice(9, 12));

describe("bounded requests", () => {
  it("answers a non-form POST 415 with a short message (JSON for the API)", async () => {
    const json = await fetch(`http://127.0.0.1:${port}/admin/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "a@b.c" }),
    });
    expect(json.status).toBe(415);
    expect(await json.text()).toBe(`${BOUNDS_MESSAGES.contentType}\n`);
    const text = await fetch(`http://127.0.0.1:${port}/api/id-photo`, { method: "POST", body: "hello" });
    expect(text.status).toBe(415);
    expect(await text.json()).toEqual({ error: BOUNDS_MESSAGES.contentType });
    const none = await fetch(`http://127.0.0.1:${port}/admin/logout`, { method: "POST" });
    expect(none.status).toBe(415);
    const form = await fetch(`http://127.0.0.1:${port}/admin/login`, {
      method: "POST",
      body: new URLSearchParams({ email: "a@b.c" }),
    });
    expect(form.status).toBe(200);
    expect(await form.text()).toBe("read 13");
  });

  it("answers a declared 50 MB login body 413 before reading it", async () => {
    reached.length = 0;
    const { response, serverRead } = await raw(
      `POST /admin/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n`,
      keepSending(Buffer.alloc(16 * 1024, 0x61)),
    );
    expect(statusOf(response)).toBe(413);
    expect(response).toContain(BOUNDS_MESSAGES.tooLarge);
    expect(serverRead).toBeLessThan(1.5 * 1024 * 1024);
    expect(reached).toEqual([]);
  });

  it("cuts a chunked body off as soon as it passes the limit, and the reader gets an error", async () => {
    const piece = Buffer.alloc(16 * 1024, 0x61);
    const { response, serverRead } = await raw(
      "POST /admin/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n",
      keepSending((socket) => {
        socket.write(`${piece.length.toString(16)}\r\n`);
        socket.write(piece);
        socket.write("\r\n");
      }),
    );
    expect(statusOf(response)).toBe(413);
    // The limit, then at most 1 MB dropped while the client reads its answer.
    expect(serverRead).toBeLessThan(DEFAULT_BODY_LIMIT_BYTES + 1.5 * 1024 * 1024);
    const entry = reached.findLast((item) => item.url === "/admin/login");
    expect(entry?.bodyBytes).toBeLessThanOrEqual(DEFAULT_BODY_LIMIT_BYTES);
    await expect.poll(() => entry?.error).toBe("BodyTooLargeError");
  });

  it("lets the checkout answer a declared oversize itself, and takes none of the body meanwhile", async () => {
    const { response, serverRead } = await raw(
      `POST /checkout HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n`,
      keepSending(Buffer.alloc(16 * 1024, 0x41)),
    );
    expect(statusOf(response)).toBe(413);
    expect(response).toContain("route's own answer");
    expect(serverRead).toBeLessThan(1.5 * 1024 * 1024);
  });

  it("keeps a connection usable when the answer went out before a body within the limit was read", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, url: string, body?: Buffer) =>
      new Promise<string>((resolve) => {
        const outgoing = request(
          {
            agent,
            host: "127.0.0.1",
            port,
            method,
            path: url,
            headers: body
              ? { "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(body.length) }
              : {},
          },
          (response) => {
            response.resume();
            response.on("end", () => resolve(String(response.statusCode)));
          },
        );
        outgoing.on("error", (error) => resolve(`error ${error.message}`));
        outgoing.end(body);
      });
    try {
      for (let round = 0; round < 3; round++) {
        // The route answers at once and never reads these 600 KB or 3 MB (within its 10 MB limit,
        // more than the 1 MB dropped after a refusal).
        expect(await send("POST", "/checkout", Buffer.alloc(600 * 1024, 0x41))).toBe("413");
        expect(await send("POST", "/admin/login", Buffer.from("--x--\r\n"))).toBe("200");
        expect(await send("POST", "/checkout", Buffer.alloc(3 * 1024 * 1024, 0x41))).toBe("413");
        expect(await send("POST", "/admin/login", Buffer.from("--x--\r\n"))).toBe("200");
      }
    } finally {
      agent.destroy();
    }
  });

  it("keys the limit by route as the router matches it, with 64 KB for every other route", () => {
    expect(bodyRuleFor("/checkout").maxBytes).toBe(MAX_CHECKOUT_BODY_BYTES);
    expect(bodyRuleFor("/Checkout/?x=1").maxBytes).toBe(MAX_CHECKOUT_BODY_BYTES);
    expect(bodyRuleFor("/checkout.data").maxBytes).toBe(MAX_CHECKOUT_BODY_BYTES);
    expect(bodyRuleFor("/api/id-photo").maxBytes).toBe(MAX_CHECKOUT_BODY_BYTES);
    expect(bodyRuleFor("/admin/products/edit/3f0c").maxBytes).toBe(256 * 1024);
    for (const path of [
      "/admin/login",
      "/admin/orders",
      "/checkout/extra",
      "/api/id-photo2",
      "/a-new-route",
    ]) {
      expect(bodyRuleFor(path).maxBytes).toBe(DEFAULT_BODY_LIMIT_BYTES);
    }
  });

  it("knows form content types with their parameters", () => {
    expect(isFormContentType("multipart/form-data; boundary=abc")).toBe(true);
    expect(isFormContentType("Application/X-WWW-Form-Urlencoded;charset=UTF-8")).toBe(true);
    expect(isFormContentType("application/json")).toBe(false);
    expect(isFormContentType("text/plain")).toBe(false);
    expect(isFormContentType(undefined)).toBe(false);
  });
});
