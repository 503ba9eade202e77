/**
 * Phone numbers as the shop keeps them: E.164 (`+12025554321`), US when no country code is given.
 * The strict check and the conversion need libphonenumber's metadata (about 29 KB gzipped even in
 * its smallest build), so they run on the server only (`phone.server.ts`); the browser gets this
 * light check, which already refuses what a shopper mistypes (a digit too many or too few).
 */

export const PHONE_INVALID_MESSAGE = "Enter a valid phone number, like (202) 555-0123";

/**
 * A US number of 10 digits (or 11 with the leading 1; area code and exchange not starting with 0
 * or 1), or with a `+` and a country code, 8 to 15 digits. Only digits, spaces, dots, dashes and
 * brackets besides.
 */
export function phoneLooksValid(value: string) {
  const text = value.trim();
  if (!/^\+?[\d\s().-]+$/.test(text)) return false;
  const digits = text.replace(/\D/g, "");
  if (text.startsWith("+")) {
    if (digits.startsWith("1")) return /^1[2-9]\d\d[2-9]\d{6}$/.test(digits);
    return digits.length >= 8 && digits.length <= 15;
  }
  return /^1?[2-9]\d\d[2-9]\d{6}$/.test(digits);
}

/** A stored number as people write it: `(202) 555-4321` for a US one, as stored otherwise. */
export function formatPhone(stored: string) {
  const us = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(stored);
  return us ? `(${us[1]}) ${us[2]}-${us[3]}` : stored;
}
