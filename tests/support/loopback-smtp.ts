import { SMTPServer } from "smtp-server";

/** One message as the SMTP server received it. */
export type ReceivedMail = { subject: string; messageId: string; to: string[]; raw: string };

export type LoopbackSmtp = {
  port: number;
  /** Every message whose DATA arrived in full, in order (recorded before the delay, see below). */
  received: ReceivedMail[];
  /**
   * Changeable while it runs: `delayMs` before each message is accepted ("250 OK"), `accepting`
   * false answers every MAIL FROM with 451 "try again later" (counted in `refusals`).
   */
  state: { delayMs: number; accepting: boolean; refusals: number };
  close(): Promise<void>;
};

function header(raw: string, name: string) {
  return new RegExp(`^${name}:\\s*(.+)$`, "im").exec(raw)?.[1]?.trim() ?? "";
}

/**
 * A real SMTP server (`smtp-server`) on 127.0.0.1 and a free port, no TLS, no authentication.
 * A message counts as received once its whole DATA has arrived, before the delay: a sender killed
 * while it waits for "250 OK" has still delivered it (which is how a crash can cause a duplicate).
 */
export function startLoopbackSmtp(options: { delayMs?: number; accepting?: boolean } = {}) {
  const received: ReceivedMail[] = [];
  const state = { delayMs: options.delayMs ?? 0, accepting: options.accepting ?? true, refusals: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onMailFrom(_address, _session, callback) {
      if (state.accepting) return callback();
      state.refusals += 1;
      const error = new Error("Mailbox busy, try again later") as Error & { responseCode: number };
      error.responseCode = 451;
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        received.push({
          subject: header(raw, "Subject"),
          messageId: header(raw, "Message-ID"),
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
        });
        if (state.delayMs > 0) setTimeout(() => callback(), state.delayMs);
        else callback();
      });
    },
  });
  return new Promise<LoopbackSmtp>((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.server.address();
      resolve({
        port: typeof address === "object" && address ? address.port : 0,
        received,
        state,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
