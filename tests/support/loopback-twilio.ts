/**
 * A stand-in for Twilio's Messages API on a loopback port: `POST /2010-04-01/Accounts/{sid}/Messages.json`
 * with basic auth and a form body, answered 201 with a message resource as Twilio does. The shop's
 * text transport (the `twilio` library's client) is pointed at it through TWILIO_API_URL.
 */
import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedText = {
  to: string;
  from: string | null;
  body: string;
  /** The caller's User-Agent (the `twilio` library sends `twilio-node/<version> …`). */
  userAgent: string | null;
};

export type LoopbackTwilio = {
  url: string;
  accountSid: string;
  authToken: string;
  received: ReceivedText[];
  /** Answers every request with this status (a Twilio error body) while set. */
  failWith: number | null;
  close(): Promise<void>;
};

export async function startLoopbackTwilio(accountSid: string, authToken: string): Promise<LoopbackTwilio> {
  const state = { received: [] as ReceivedText[], failWith: null as number | null };
  const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString("base64")}`;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const json = (status: number, body: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(body));
      };
      if (request.method !== "POST" || request.url !== `/2010-04-01/Accounts/${accountSid}/Messages.json`) {
        return json(404, { code: 20404, message: "The requested resource was not found", status: 404 });
      }
      if (request.headers.authorization !== expectedAuth) {
        return json(401, { code: 20003, message: "Authenticate", status: 401 });
      }
      if (state.failWith)
        return json(state.failWith, { code: 20500, message: "Failure", status: state.failWith });
      const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      const to = form.get("To");
      const body = form.get("Body");
      if (!to || !body || !(form.get("From") || form.get("MessagingServiceSid"))) {
        return json(400, { code: 21604, message: "A 'To', 'From' and 'Body' are required", status: 400 });
      }
      state.received.push({
        to,
        from: form.get("From"),
        body,
        userAgent: request.headers["user-agent"] ?? null,
      });
      json(201, {
        sid: `SM${String(state.received.length).padStart(32, "0")}`,
        status: "queued",
        to,
        body,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    accountSid,
    authToken,
    get received() {
      return state.received;
    },
    get failWith() {
      return state.failWith;
    },
    set failWith(value) {
      state.failWith = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The signature Twilio puts in `X-Twilio-Signature` when it calls a webhook, as Twilio documents
 * it: HMAC-SHA1 with the auth token over the full URL followed by each POST parameter's name and
 * value, sorted by name; base64. Written here, not taken from the library, so the shop's check
 * (the library's `validateRequest`) is tested against Twilio's description.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>) {
  const data = Object.keys(params)
    .sort()
    .reduce((text, key) => text + key + params[key], url);
  return createHmac("sha1", authToken).update(data, "utf8").digest("base64");
}
