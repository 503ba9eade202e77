/**
 * zod, as every schema of the app imports it. In the browser its JIT is off: the shop's CSP allows
 * no eval, and zod's probe for it (`new Function("")`) would be reported as a CSP violation on every
 * page that parses a form. The server keeps the faster JIT parse.
 */
import { z } from "zod";

if (typeof document !== "undefined") z.config({ jitless: true });

export { z };

/** Control characters (NUL, escape, DEL, C1…): no form field of the shop has a use for them. */
const CONTROL_CHARACTER = /\p{Cc}/u;
/** The same, but line breaks and tabs, which a text area may hold. */
const CONTROL_CHARACTER_BUT_LINES = /[^\P{Cc}\t\n\r]/u;

/**
 * True when `value` holds a control character (a NUL would otherwise reach the database, which
 * refuses it with an error, not a field message). `multiline` allows tabs and line breaks.
 */
export function hasControlCharacter(value: string, options: { multiline?: boolean } = {}) {
  return (options.multiline ? CONTROL_CHARACTER_BUT_LINES : CONTROL_CHARACTER).test(value);
}

/**
 * A text field the shopper or staff types: a string without control characters, refused with
 * `message` (the field's own words) — the same check in the browser and on the server.
 */
export function plainText(message: string, options: { multiline?: boolean } = {}) {
  return z
    .string({ error: message })
    .refine((value) => !hasControlCharacter(value, options), { message, abort: true });
}
