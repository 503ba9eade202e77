/**
 * One outbox mail as a MIME message (RFC 5322, 2045, 2047): multipart/alternative with the text
 * and the HTML part, each UTF-8 in base64. Composed in one pass of string work: nodemailer's own
 * composer (a stream pipeline per part, quoted-printable in JavaScript) cost as much CPU per mail as
 * the rest of an order post together (record 023 has the figures). nodemailer still speaks SMTP.
 */
import { randomBytes } from "node:crypto";

export type MimeMail = {
  /** `"Name" <address>` or a bare address. */
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** With its angle brackets. */
  messageId: string;
  date?: Date;
};

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** No header value may break its line: CR, LF and other controls become spaces. */
function oneLine(value: string) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  return value.replace(/[\x00-\x1f\x7f]+/g, " ").trim();
}

/** RFC 2047 encoded words (`=?UTF-8?B?…?=`), each at most 75 characters, split on whole characters. */
export function encodedWords(value: string) {
  const words: string[] = [];
  let chunk = "";
  for (const character of value) {
    if (Buffer.byteLength(chunk + character) > 45) {
      words.push(chunk);
      chunk = "";
    }
    chunk += character;
  }
  if (chunk) words.push(chunk);
  return words.map((word) => `=?UTF-8?B?${Buffer.from(word).toString("base64")}?=`).join("\r\n ");
}

/** A header's value, ASCII as it is (folded at spaces to stay under 78 characters), else encoded. */
function headerText(value: string, nameLength: number) {
  const text = oneLine(value);
  if (!PRINTABLE_ASCII.test(text)) return encodedWords(text);
  const lines: string[] = [];
  let line = "";
  let room = 76 - nameLength;
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > room) {
      lines.push(line);
      line = word;
      room = 76;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.join("\r\n ");
}

/** `"Name" <address>`: the name quoted (or encoded), the address stripped of anything but itself. */
function mailbox(value: string) {
  const match = /^\s*"?(.*?)"?\s*<([^<>]+)>\s*$/.exec(oneLine(value));
  const address = (match?.[2] ?? value).replace(/[\s<>"]/g, "");
  const name = match?.[1]?.replace(/["\\]/g, "").trim();
  if (!name) return address;
  return `${PRINTABLE_ASCII.test(name) ? `"${name}"` : encodedWords(name)} <${address}>`;
}

/** The bare address of a mailbox, for the SMTP envelope. */
export function mailboxAddress(value: string) {
  const match = /<([^<>]+)>\s*$/.exec(value);
  return (match?.[1] ?? value).replace(/[\s<>"]/g, "");
}

function base64Lines(value: string, newline: string) {
  const encoded = Buffer.from(value, "utf8").toString("base64");
  const lines: string[] = [];
  for (let at = 0; at < encoded.length; at += 76) lines.push(encoded.slice(at, at + 76));
  return lines.join(newline);
}

/** RFC 5322 date in UTC: `Tue, 24 Nov 2026 19:55:00 +0000`. */
function mailDate(date: Date) {
  return date.toUTCString().replace("GMT", "+0000");
}

/**
 * The whole message. `newline` is CRLF for SMTP (the standard) and may be LF for a file, as
 * nodemailer's `newline: "unix"` wrote it before.
 */
export function composeMime(mail: MimeMail, newline: "\r\n" | "\n" = "\r\n"): Buffer {
  const boundary = `--_cg_${randomBytes(12).toString("hex")}`;
  const headers = [
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    `From: ${mailbox(mail.from)}`,
    `To: ${mailbox(mail.to)}`,
    `Subject: ${headerText(mail.subject, "Subject: ".length)}`,
    `Message-ID: ${oneLine(mail.messageId).replace(/\s/g, "")}`,
    `Date: ${mailDate(mail.date ?? new Date())}`,
    "MIME-Version: 1.0",
  ];
  const part = (type: string, body: string) =>
    [
      `--${boundary}`,
      `Content-Type: ${type}; charset=utf-8`,
      "Content-Transfer-Encoding: base64",
      "",
      base64Lines(body, newline),
    ].join(newline);
  const text = [
    ...headers.map((header) => header.replaceAll("\r\n", newline)),
    "",
    part("text/plain", mail.text),
    part("text/html", mail.html),
    `--${boundary}--`,
    "",
  ].join(newline);
  return Buffer.from(text, "utf8");
}
