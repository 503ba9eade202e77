import { request as httpRequest } from "node:http";

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
 * The status of a POST whose body the server refuses before it has all arrived, read as soon as the
 * answer comes (as a browser does), while the body is still being written: the server then closes
 * the connection, and a client that waits to finish writing first sees only the reset.
 */
export function earlyAnswerStatus(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
) {
  const { hostname, port } = new URL(baseUrl);
  return new Promise<number>((resolve, reject) => {
    let answered = false;
    const req = httpRequest(
      {
        host: hostname,
        port,
        method: "POST",
        path,
        headers: { ...headers, "Content-Length": String(body.length) },
      },
      (res) => {
        answered = true;
        resolve(res.statusCode ?? 0);
        res.resume();
        res.on("error", () => {});
      },
    );
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    req.end(body);
  });
}
