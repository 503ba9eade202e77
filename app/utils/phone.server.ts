/**
 * The strict half of `phone.ts`: a phone number as typed, checked against libphonenumber's full
 * metadata (US unless it starts with a country code) and written as E.164, the one form the shop
 * stores, compares (open orders per phone) and searches by.
 */
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { phoneLooksValid } from "./phone.ts";

/** `+12025554321` for `(202) 555-4321`, `2025554321` or `+1 202 555 4321`; null when not a valid number. */
export function normalizePhone(value: string): string | null {
  if (!phoneLooksValid(value)) return null;
  const parsed = parsePhoneNumberFromString(value, "US");
  return parsed?.isValid() ? parsed.number : null;
}
