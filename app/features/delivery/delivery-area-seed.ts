/**
 * The shop's delivery area as it is seeded into `delivery_zones` on an empty database (decision 21,
 * issue 15 item 1): one zone per jurisdiction, each with the residential 5-digit ZIP codes it
 * serves. Plain data, no database and no server-only imports, so the seed, the admin screens and
 * the tests all read the same lists. See docs/decisions/022-delivery-area-zip-lists.md.
 *
 * SOURCES (both read on 2026-11-23):
 *  [A] USPS ZIP type and county per ZIP: the `zip-monster` package's data,
 *      https://github.com/simplisticated/zip-monster, files
 *      src/data/resources/zip-codes/district-of-columbia.ts and …/virginia.ts
 *      (commit 7f9d998464aa06aaf50c8704ac7dbbd31ede0a33, 2024-05-15; MIT). Each ZIP carries one
 *      county (the county most of the ZIP lies in) and a type: "Non-Unique" (standard, street
 *      delivery), "PO Box" (PO boxes only) or "Unique" (one organisation).
 *  [B] Which ZIPs have a Census ZIP Code Tabulation Area (ZCTA), i.e. residential addresses the
 *      2020 Census could place: SimpleMaps' free US ZIP list `uszips.csv` (ZCTA-based, 33,787 ZIPs),
 *      https://simplemaps.com/data/us-zips, as committed in
 *      https://github.com/cyberghost23/ZipDistancing (uszips.csv, commit
 *      5f01af081d652449e7fe7e5872d7495bc434b69c, 2022-05-26).
 *
 * RULES
 *  1. A ZIP is listed when [A] gives it type "Non-Unique" AND it has a ZCTA in [B]. This drops
 *     PO-box-only ZIPs (e.g. DC 20013, 20044; VA 22009, 22040, 22210, 22313) and unique ZIPs of one
 *     organisation (e.g. DC 20510 Senate, 20515 House, 20520 State Department; VA 22212, 22217,
 *     22225-22246 in Arlington), and ZIPs [A] calls standard that have no residential area in [B]:
 *     DC 20026, 20374, 20376, 20391, 20398, 20500 (the White House: listed as standard by [A], but
 *     it has no ZCTA and serves one address); VA 20192 (Herndon), 22034, 22036 (Fairfax), 22067
 *     (Greenway), 22081 (Merrifield), 22331, 22332 (Alexandria). DC 20041 is dropped too: [A]
 *     files it under DC but its county is Fairfax (Dulles Airport), so it is not a DC address.
 *  2. Single-organisation ZIPs that do have a ZCTA are also left out, because every address in
 *     them belongs to one institution whose mail room or gate receives deliveries:
 *     DC 20045 (National Press Building), 20057 (Georgetown University), 20059 (Howard
 *     University), 20064 (Catholic University), 20260 (USPS headquarters), 20388 (Washington Navy
 *     Yard); VA 22035 (Fairfax County Government Center). Federal military installations are
 *     left out for the same reason and because cannabis stays illegal on federal property:
 *     VA 22060 (Fort Belvoir), 22211 (Fort Myer). Staff can add any of them back at
 *     /admin/settings/delivery.
 *  3. One zone per ZIP (the checkout maps a ZIP to one zone). A ZIP that straddles a county or
 *     city line belongs to the zone of the county [A] gives it, the one most of the ZIP lies in.
 *     ZIPs that cross a line, and where they went: 22046 (the City of Falls Church's ZIP, reaches
 *     into Fairfax County) → City of Falls Church; 22042, 22044 (Fairfax County, reach into the
 *     City of Falls Church) → Fairfax County; 22031, 22032 (Fairfax County, reach into the City of
 *     Fairfax) → Fairfax County; 20171 (Herndon, reaches into Loudoun) → Fairfax County. ZIPs whose
 *     main county is outside the area (e.g. Loudoun's 20166, Dulles, reaching into Fairfax County)
 *     are not listed. The shares were not checked ZIP by ZIP against a population-weighted
 *     crosswalk (HUD-USPS ZIP–county); the one county [A] gives decides.
 *  4. Exception to rule 3 so that every seeded jurisdiction has its zone: an independent city
 *     that is the main county of no ZIP takes the ZIP of its own city hall. Only the City of
 *     Fairfax is in this case: [A] gives 22030 to Fairfax County, and the City of Fairfax (city
 *     hall at 10455 Armstrong Street, Fairfax, VA 22030) lies in 22030. So 22030 → City of Fairfax.
 *     Both zones are in Virginia, so the checkout's answer for 22030 is the same either way; only
 *     a zone's own minimum order could differ.
 */
import type { DeliveryState } from "../checkout/checkout.schema.ts";

/** One row of the `delivery_zones` table as it is seeded. */
export type DeliveryZoneSeed = {
  /** Shown to staff and named in messages. */
  name: string;
  /** The checkout's state field must match it. */
  state: DeliveryState;
  active: boolean;
  /** The zone's own minimum order in cents, or null for the shop's minimum ($80.00 is the floor). */
  minimumOrderCents: number | null;
  /** Residential 5-digit ZIP codes, ascending. */
  zipCodes: readonly string[];
};

/** The shop's delivery area (decision 21), in the order the admin screen lists it. */
export const DELIVERY_AREA_SEED: readonly DeliveryZoneSeed[] = [
  {
    name: "District of Columbia",
    state: "DC",
    active: true,
    minimumOrderCents: null,
    zipCodes: [
      "20001", "20002", "20003", "20004", "20005", "20006", "20007", "20008", "20009", "20010",
      "20011", "20012", "20015", "20016", "20017", "20018", "20019", "20020", "20024", "20032",
      "20036", "20037",
    ],
  },
  {
    name: "Arlington County",
    state: "VA",
    active: true,
    minimumOrderCents: null,
    zipCodes: [
      "22201", "22202", "22203", "22204", "22205", "22206", "22207", "22209", "22213", "22214",
    ],
  },
  {
    name: "City of Alexandria",
    state: "VA",
    active: true,
    minimumOrderCents: null,
    zipCodes: ["22301", "22302", "22304", "22305", "22311", "22314"],
  },
  {
    name: "Fairfax County",
    state: "VA",
    active: true,
    minimumOrderCents: null,
    zipCodes: [
      "20120", "20121", "20124", "20151", "20170", "20171", "20190", "20191", "20194", "22003",
      "22015", "22027", "22031", "22032", "22033", "22039", "22041", "22042", "22043", "22044",
      "22066", "22079", "22101", "22102", "22124", "22150", "22151", "22152", "22153", "22180",
      "22181", "22182", "22303", "22306", "22307", "22308", "22309", "22310", "22312", "22315",
    ],
  },
  {
    name: "City of Fairfax",
    state: "VA",
    active: true,
    minimumOrderCents: null,
    zipCodes: ["22030"],
  },
  {
    name: "City of Falls Church",
    state: "VA",
    active: true,
    minimumOrderCents: null,
    zipCodes: ["22046"],
  },
];
