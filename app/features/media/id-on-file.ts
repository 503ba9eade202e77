/** The ID on file (record 058), as the checkout page shows it: plain, safe in the browser. */

/** The checkout's box: 'Keep my ID on file for next time'. */
export const KEEP_ID_FIELD = "keepIdOnFile";

/** 'ID on file (expires 03/2029)' for an ID whose last valid day is 2029-03-31. */
export function idOnFileText(expiresOn: string) {
  const [year, month] = expiresOn.split("-");
  return `ID on file (expires ${month}/${year})`;
}
