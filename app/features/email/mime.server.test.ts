import { describe, expect, it } from "vitest";
import { composeMime, encodedWords, mailboxAddress } from "./mime.server.ts";

/** Reads a composed message back: unfolded headers, and each part's decoded body by content type. */
function readBack(raw: string) {
  const [head = "", ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join("\n\n");
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  const boundary = /boundary="([^"]+)"/.exec(headers.get("content-type") ?? "")?.[1] as string;
  const parts = new Map<string, string>();
  for (const chunk of body.split(`--${boundary}`).slice(1, -1)) {
    const [partHead = "", partBody = ""] = chunk.replace(/^\r?\n/, "").split(/\r?\n\r?\n/);
    const type = /Content-Type: ([^;]+)/.exec(partHead)?.[1] as string;
    expect(partHead).toContain("Content-Transfer-Encoding: base64");
    parts.set(type, Buffer.from(partBody.replace(/\s/g, ""), "base64").toString("utf8"));
  }
  return { headers, parts, closed: body.trimEnd().endsWith(`--${boundary}--`) };
}

/** RFC 2047 B-encoded words back to text (what a mail client shows). */
function decodeWords(value: string) {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?UTF-8\?B\?([^?]*)\?=/g, (_all, data: string) =>
      Buffer.from(data, "base64").toString("utf8"),
    );
}

const MAIL = {
  from: '"Capital Grown" <orders@capitalgrown.example>',
  to: "ada@example.com",
  subject: "Your Capital Grown order #75c01a43 is received",
  text: "Thank you, Ada.\nTotal: $80.00\n",
  html: '<!DOCTYPE html><html><body><p style="color:#2f7553">Thank you, Ada.</p></body></html>',
  messageId: "<0b0e5f5e-1111-4222-8333-944445555666.outbox@capitalgrown.example>",
  date: new Date("2026-11-24T19:55:00Z"),
};

describe("composeMime", () => {
  it("writes both parts, the headers mail servers need, and CRLF line ends for SMTP", () => {
    const raw = composeMime(MAIL).toString("utf8");
    const { headers, parts, closed } = readBack(raw);
    expect(headers.get("from")).toBe('"Capital Grown" <orders@capitalgrown.example>');
    expect(headers.get("to")).toBe("ada@example.com");
    expect(headers.get("subject")).toBe(MAIL.subject);
    expect(headers.get("message-id")).toBe(MAIL.messageId);
    expect(headers.get("date")).toBe("Tue, 24 Nov 2026 19:55:00 +0000");
    expect(headers.get("mime-version")).toBe("1.0");
    expect(headers.get("content-type")).toMatch(/^multipart\/alternative; boundary="/);
    expect(parts.get("text/plain")).toBe(MAIL.text);
    expect(parts.get("text/html")).toBe(MAIL.html);
    expect(closed).toBe(true);
    // Every line ends in CRLF and none is longer than 78 characters.
    expect(raw.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    expect(Math.max(...raw.split("\r\n").map((line) => line.length))).toBeLessThanOrEqual(78);
  });

  it("writes LF line ends for a file when asked", () => {
    const raw = composeMime(MAIL, "\n").toString("utf8");
    expect(raw).not.toContain("\r");
    expect(readBack(raw).parts.get("text/html")).toBe(MAIL.html);
  });

  it("encodes non-ASCII subjects and names, and folds long ASCII subjects, losing nothing", () => {
    const subject = `Nouvelle commande — ${"café ".repeat(20)}✓`;
    const long = `New order #75c01a43: $80.00 for Wed, Nov 25, 12:00 PM - 2:00 PM, ${"word ".repeat(30).trim()}`;
    const raw = composeMime({
      ...MAIL,
      from: '"Capital Grówn" <orders@capitalgrown.example>',
      subject,
    }).toString();
    const { headers } = readBack(raw);
    expect(raw).toMatch(/^[\x20-\x7e\r\n]*$/);
    expect(decodeWords(headers.get("subject") as string)).toBe(subject.trim());
    expect(decodeWords(headers.get("from") as string)).toBe("Capital Grówn <orders@capitalgrown.example>");
    const folded = composeMime({ ...MAIL, subject: long }).toString();
    expect(readBack(folded).headers.get("subject")).toBe(long);
    expect(Math.max(...folded.split("\r\n").map((line) => line.length))).toBeLessThanOrEqual(78);
    for (const word of encodedWords(subject).split("\r\n ")) expect(word.length).toBeLessThanOrEqual(75);
  });

  it("never lets a value start a header or a part of its own", () => {
    const raw = composeMime({
      ...MAIL,
      subject: "Hello\r\nBcc: victim@example.com\r\n\r\n--injected",
      to: "ada@example.com\r\nBcc: victim@example.com",
    }).toString();
    const { headers } = readBack(raw);
    expect(headers.has("bcc")).toBe(false);
    expect(raw).not.toMatch(/^Bcc:/im);
    expect(headers.get("subject")).toBe("Hello Bcc: victim@example.com --injected");
  });

  it("gives the bare address for the SMTP envelope", () => {
    expect(mailboxAddress('"Capital Grown" <orders@capitalgrown.example>')).toBe(
      "orders@capitalgrown.example",
    );
    expect(mailboxAddress("ada@example.com")).toBe("ada@example.com");
  });
});
