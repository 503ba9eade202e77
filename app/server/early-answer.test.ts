import { once } from "node:events";
import type { AddressInfo } from "node:net";
import net from "node:net";
import express from "express";
import { afterAll, beforeAll, expect, it } from "vitest";
import { closeAfterEarlyAnswer } from "./http-guards.server.ts";

/**
 * A real Express server on loopback: one route answers without reading the body (as a checkout
 * refused on the fields before its photo), one reads it all first.
 */
let port = 0;
let close: () => Promise<void>;

beforeAll(async () => {
  const app = express();
  app.use(closeAfterEarlyAnswer);
  app.post("/refuse", (_req, res) => {
    res.status(409).send("refused");
  });
  app.get("/sync", (_req, res) => {
    res.send("answered at once");
  });
  app.post("/read", (req, res) => {
    req.resume();
    req.on("end", () => res.send("read"));
  });
  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});

afterAll(async () => {
  await close();
});

/** The head of the answer to what is written (`parts`, in order) on a new connection. */
async function answerHeadTo(...parts: Array<string | Buffer>) {
  const socket = net.connect(port, "127.0.0.1");
  await once(socket, "connect");
  for (const part of parts) socket.write(part);
  let received = "";
  socket.setEncoding("latin1");
  for await (const chunk of socket) {
    received += chunk;
    if (received.includes("\r\n\r\n")) break;
  }
  socket.destroy();
  return received.split("\r\n\r\n")[0] as string;
}

/** The head of the answer to a POST of `declared` bytes of which only `sent` are written. */
function answerHead(path: string, declared: number, sent: number) {
  return answerHeadTo(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: ${declared}\r\n\r\n`,
    Buffer.alloc(sent, 1),
  );
}

it("ends the connection after an answer written before the body arrived", async () => {
  const head = await answerHead("/refuse", 6_000_000, 1024);
  expect(head).toMatch(/^HTTP\/1\.1 409/);
  expect(head).toMatch(/\r\nConnection: close/i);
});

it("keeps the connection after an answer to a body read to its end", async () => {
  const head = await answerHead("/read", 1024, 1024);
  expect(head).toMatch(/^HTTP\/1\.1 200/);
  expect(head).toMatch(/\r\nConnection: keep-alive/i);
});

it("keeps the connection after a GET answered synchronously (it has no body to wait for)", async () => {
  const head = await answerHeadTo("GET /sync HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  expect(head).toMatch(/^HTTP\/1\.1 200/);
  expect(head).toMatch(/\r\nConnection: keep-alive/i);
});
