import { types } from "@electric-sql/pglite";

/**
 * How the embedded database moves `bytea` values (ID photos, product images, signatures).
 *
 * PGlite's own codec turns bytes into hex text and back one byte at a time in JavaScript, on the
 * event loop: about 25 ms for each megabyte sent, far more for each read. Here a parameter goes
 * out as it is: PGlite's bind message sends any typed array in PostgreSQL's binary format, which
 * for `bytea` is the bytes themselves. A result (always text, `\x` and hex) is decoded natively.
 */
export const PGLITE_BYTEA_CODEC = {
  serializers: {
    // PGlite's type says a serializer returns text; a typed array is sent in binary format.
    [types.BYTEA]: ((bytes: Uint8Array) => bytes) as unknown as (value: unknown) => string,
  },
  parsers: {
    [types.BYTEA]: (text: string): Uint8Array => {
      const bytes = Buffer.from(text.slice(2), "hex");
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
  },
};
