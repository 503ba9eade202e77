import { request as httpRequest } from "node:http";
import { connect } from "node:net";

export type RawResponse = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
};

/**
 * One HTTP request with the path exactly as written (`/%` stays `/%`: fetch would normalise or
 * refuse it) and any method, TRACE included.
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
) {
  const { hostname, port } = new URL(baseUrl);
  return new Promise<RawResponse>((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * The status line a server answers a POST with while the client is still uploading its body: the
 * head and the first `firstBytes` of the body go out, then the client waits for the answer before it
 * would send the rest (as a browser reads an early answer during an upload). A refusal that needs the
 * whole body would never come: the wait times out.
 */
export function earlyAnswerStatus(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
  options: { firstBytes?: number; timeoutMs?: number } = {},
) {
  const { hostname, port } = new URL(baseUrl);
  const head = [
    `POST ${path} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    ...Object.entries({ ...headers, "Content-Length": String(body.length) }).map(([k, v]) => `${k}: ${v}`),
    "",
    "",
  ].join("\r\n");
  return new Promise<number>((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${options.timeoutMs ?? 10_000} ms while uploading`));
    }, options.timeoutMs ?? 10_000);
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received);
      if (status) {
        clearTimeout(timer);
        socket.destroy();
        resolve(Number(status[1]));
      }
    });
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.write(head);
    socket.write(body.subarray(0, options.firstBytes ?? 64 * 1024));
  });
}

export type WireAnswer = { status: number; head: string; body: string };

/**
 * Sends `head` (a request line and headers, written out in full: HTTP/1.0 without Host, an empty
 * Host, an absolute-form target…) on a connection of its own and reads the answer until the server
 * closes it; the request should say `Connection: close` or be HTTP/1.0. Status 0: the connection
 * ended without an answer.
 */
export function wireRequest(baseUrl: string, head: string, timeoutMs = 10_000) {
  const { hostname, port } = new URL(baseUrl);
  return new Promise<WireAnswer>((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to ${JSON.stringify(head.slice(0, 80))}`));
    }, timeoutMs);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    const done = () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString("latin1");
      const split = text.indexOf("\r\n\r\n");
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      resolve({
        status: status ? Number(status[1]) : 0,
        head: split === -1 ? text : text.slice(0, split),
        body: split === -1 ? "" : text.slice(split + 4),
      });
    };
    socket.on("close", done);
    socket.on("error", () => {});
    socket.write(head);
  });
}
