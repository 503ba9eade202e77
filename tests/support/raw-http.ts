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
