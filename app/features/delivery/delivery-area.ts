/**
 * Delivery area rules (P-21): which zone a ZIP belongs to, and the refusal a shopper sees
 * when the shop does not deliver there. Pure functions, no database and no React: the checkout
 * form, the server's order check and the landing page's "Do we deliver to you?" box run the same
 * code over zones read from `delivery_zones` (seeded from ./delivery-area-seed.ts).
 */
import { type DeliveryState, STATE_NAMES } from "#app/features/purchase-limits/purchase-limits.ts";

/** What the rules need of a zone row. */
export type DeliveryZoneLike = {
  state: DeliveryState;
  active: boolean;
  zipCodes: readonly string[];
};

export type ZipRefusal = "not-a-zip" | "outside-area" | "wrong-state";

export type ZoneForZipResult<Z> =
  | { ok: true; zone: Z; zip: string }
  | { ok: false; reason: ZipRefusal; zip: string | null };

/** How the shop names its area in messages (no configured wording exists yet; the words). */
export const DELIVERY_AREA_WORDS = "Washington DC and Northern Virginia";

const ZIP = /^(\d{5})(?:-\d{4})?$/;

/**
 * The 5-digit ZIP of a shopper's input, or null. Accepts '20001', ' 20001 ' and ZIP+4
 * '20001-1234' (the +4 is dropped); anything else (letters, 4 or 6 digits, '200011234') is null.
 */
export function normalizeZip(input: string): string | null {
  const match = ZIP.exec(input.trim());
  return match?.[1] ?? null;
}

/**
 * The active zone that holds the ZIP and whose state is the chosen state. When no active zone
 * holds it the answer is 'outside-area'; when only zones of another state hold it, 'wrong-state'
 * (a DC ZIP with Virginia chosen). Inactive zones count as absent.
 */
export function zoneForZip<Z extends DeliveryZoneLike>(
  zones: readonly Z[],
  input: string,
  state: DeliveryState,
): ZoneForZipResult<Z> {
  const zip = normalizeZip(input);
  if (zip === null) return { ok: false, reason: "not-a-zip", zip: null };
  const holding = zones.filter((zone) => zone.active && zone.zipCodes.includes(zip));
  const zone = holding.find((candidate) => candidate.state === state);
  if (zone) return { ok: true, zone, zip };
  return { ok: false, reason: holding.length > 0 ? "wrong-state" : "outside-area", zip };
}

/** The refusal shown next to the ZIP field, naming the ZIP. */
export function deliveryAreaRefusalMessage(zip: string, areaWords: string = DELIVERY_AREA_WORDS): string {
  return `We don't deliver to ${zip} yet. We deliver in ${areaWords}.`;
}

/** The message for any refusal, for the field error and the server's answer. */
export function zipRefusalMessage(
  refusal: { reason: ZipRefusal; zip: string | null },
  state: DeliveryState,
  areaWords: string = DELIVERY_AREA_WORDS,
): string {
  if (refusal.reason === "not-a-zip" || refusal.zip === null) return NOT_A_ZIP_MESSAGE;
  if (refusal.reason === "wrong-state") {
    return `${refusal.zip} is not a ${STATE_NAMES[state]} ZIP code. Check the state and the ZIP.`;
  }
  return deliveryAreaRefusalMessage(refusal.zip, areaWords);
}

/** The checkout schema's words for a malformed ZIP. */
export const NOT_A_ZIP_MESSAGE = "Enter a 5-digit ZIP code";

/**
 * The ZIPs of a pasted list (staff paste one per line, or separated by commas or spaces; ZIP+4
 * is cut to 5 digits), ascending without repeats, and the pieces that are not ZIPs.
 */
export function parseZipList(text: string): { zipCodes: string[]; invalid: string[] } {
  const zips = new Set<string>();
  const invalid: string[] = [];
  for (const piece of text.split(/[\s,;]+/)) {
    if (piece === "") continue;
    const zip = normalizeZip(piece);
    if (zip === null) invalid.push(piece);
    else zips.add(zip);
  }
  return { zipCodes: [...zips].sort(), invalid };
}

/**
 * ZIPs held by more than one active zone, with the zones' names: the checkout maps a ZIP to one
 * zone, so a save that would create one of these is refused.
 */
export function zipsInTwoZones<Z extends DeliveryZoneLike & { name: string }>(
  zones: readonly Z[],
): { zip: string; zones: string[] }[] {
  const owners = new Map<string, string[]>();
  for (const zone of zones) {
    if (!zone.active) continue;
    for (const zip of new Set(zone.zipCodes)) owners.set(zip, [...(owners.get(zip) ?? []), zone.name]);
  }
  return [...owners]
    .filter(([, names]) => names.length > 1)
    .map(([zip, names]) => ({ zip, zones: names }))
    .sort((a, b) => a.zip.localeCompare(b.zip));
}
