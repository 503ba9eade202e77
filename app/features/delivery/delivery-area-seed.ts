/**
 * The shop's delivery area as it is seeded into `delivery_zones` on an empty database
 * (P-21): one zone per jurisdiction, each with the residential 5-digit ZIP codes it
 * serves. Plain data, no database and no server-only imports, so the seed, the admin screens and
 * the tests all read the same lists. See docs/decisions/022-delivery-area-zip-lists.md.
 *
 * SOURCES (all read on 2026-11-23):
 *  [A] USPS ZIP type and county per ZIP: the `zip-monster` package's data,
 *      https://github.com/simplisticated/zip-monster, files
 *      src/data/resources/zip-codes/district-of-columbia.ts and …/virginia.ts
 *      (commit 7f9d998464aa06aaf50c8704ac7dbbd31ede0a33, 2024-05-15; MIT). Each ZIP carries one
 *      county and a type: "Non-Unique" (standard, street
 *      delivery), "PO Box" (PO boxes only) or "Unique" (one organisation).
 *  [B] Which ZIPs have a Census ZIP Code Tabulation Area (ZCTA), i.e. residential addresses the
 *      2020 Census could place: SimpleMaps' free US ZIP list `uszips.csv` (ZCTA-based, 33,787 ZIPs),
 *      https://simplemaps.com/data/us-zips, as committed in
 *      https://github.com/cyberghost23/ZipDistancing (uszips.csv, commit
 *      5f01af081d652449e7fe7e5872d7495bc434b69c, 2022-05-26).
 *  [C] How each ZCTA's land divides between counties: the US Census Bureau's 2020 ZCTA to County
 *      Relationship File (tab20_zcta520_county20_natl,
 *      https://www.census.gov/geographies/reference-files/time-series/geo/relationship-files.html),
 *      as a CSV in https://github.com/ThirstieAdmin/thirstie-public-datasets
 *      (geographics/zcta5_county_rel.csv, commit 27d600eb737ce70c2e93554399be652a1daf716c,
 *      2023-01-31). It gives land area, not addresses or population.
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
 *     city line belongs to the zone where most of it lies: the county with the largest share of
 *     the ZCTA's land in [C], which is also the county [A] gives for every listed ZIP (no
 *     address- or population-weighted crosswalk was at hand; land is the proxy). In [C] no ZCTA
 *     whose main county lies outside the area has land inside it, so no outside ZIP was weighed.
 *     Listed ZIPs that cross a line, with [C]'s land shares:
 *       22046  City of Falls Church 66%, Fairfax County 34%   → City of Falls Church
 *       22311  City of Alexandria 76%, Fairfax County 24%     → City of Alexandria
 *       22302  City of Alexandria 96%, Fairfax County 4%      → City of Alexandria
 *       22304  City of Alexandria 97%, Fairfax County 3%      → City of Alexandria
 *       22206  Arlington 97%, City of Alexandria 3%           → Arlington County
 *       22203, 22207  Arlington 99%, Fairfax County 1%        → Arlington County
 *       22030  Fairfax County 76%, City of Fairfax 24%        → City of Fairfax (rule 4)
 *       22031  Fairfax County 82%, City of Fairfax 18%        → Fairfax County
 *       22032  Fairfax County 95%, City of Fairfax 5%         → Fairfax County
 *       22312  Fairfax County 92%, City of Alexandria 8%      → Fairfax County
 *       22044  Fairfax County 94%, City of Falls Church 6%    → Fairfax County
 *       22042, 22043  Fairfax County 99%, City of Falls Church 1% → Fairfax County
 *       22101  Fairfax County 99%, Arlington 1%               → Fairfax County
 *       20120  Fairfax County 90%, Loudoun 10%                → Fairfax County (Loudoun part too)
 *       22066  Fairfax County 99%, Loudoun 1%                 → Fairfax County
 *     So a few addresses just outside the six jurisdictions (Loudoun in 20120) are served, and a
 *     few inside them whose ZIP is excluded are not; staff can edit the lists.
 *  4. Exception to rule 3 so that every seeded jurisdiction has its zone: an independent city
 *     that is the main county of no ZIP takes the ZIP of its own city hall. Only the City of
 *     Fairfax is in this case: in [C] it lies in 22030, 22031 and 22032 and is the main county of
 *     none, and its city hall (10455 Armstrong Street) is in 22030. So 22030 → City of Fairfax.
 *     Both zones are in Virginia, so the checkout's answer for 22030 is the same either way; only
 *     a zone's own minimum order could differ.
 */
import type { DeliveryState } from "#app/features/purchase-limits/purchase-limits.ts";

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

/** The shop's delivery area (P-21), in the order the admin screen lists it. */
// biome-ignore format: ZIP lists read and review better ten to a line than one per line
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
