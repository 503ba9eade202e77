import { describe, expect, it } from "vitest";
import { DELIVERY_AREA_SEED } from "./delivery-area-seed.ts";

const zone = (name: string) => {
  const found = DELIVERY_AREA_SEED.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no zone ${name}`);
  return found;
};

describe("the seeded delivery area (P-21)", () => {
  it("has the six jurisdictions of the decision, each active with ZIPs and no own minimum", () => {
    expect(DELIVERY_AREA_SEED.map((z) => [z.name, z.state])).toEqual([
      ["District of Columbia", "DC"],
      ["Arlington County", "VA"],
      ["City of Alexandria", "VA"],
      ["Fairfax County", "VA"],
      ["City of Fairfax", "VA"],
      ["City of Falls Church", "VA"],
    ]);
    for (const z of DELIVERY_AREA_SEED) {
      expect(z.active).toBe(true);
      expect(z.minimumOrderCents).toBeNull();
      expect(z.zipCodes.length).toBeGreaterThan(0);
    }
  });

  it("lists only 5-digit ZIPs, ascending, without repeats", () => {
    for (const z of DELIVERY_AREA_SEED) {
      for (const zip of z.zipCodes) expect(zip).toMatch(/^\d{5}$/);
      expect([...z.zipCodes]).toEqual([...new Set(z.zipCodes)].sort());
    }
  });

  it("puts no ZIP in two zones", () => {
    const all = DELIVERY_AREA_SEED.flatMap((z) => z.zipCodes);
    expect(new Set(all).size).toBe(all.length);
  });

  it("keeps DC ZIPs in DC's ranges (200, 202–205) and VA ZIPs in Northern Virginia's (201, 220–223)", () => {
    // USPS: 200 and 202–205 are Washington DC (202–205 federal, 569 a few unique ones);
    // 201 and 220–223 are Northern Virginia (201 Dulles/Loudoun/western Fairfax, 220–223 the rest).
    for (const z of DELIVERY_AREA_SEED) {
      for (const zip of z.zipCodes) {
        if (z.state === "DC") expect(zip).toMatch(/^20[02-5]/);
        else expect(zip).toMatch(/^(201|22[0-3])/);
      }
    }
  });

  it("places known ZIPs in the right zone", () => {
    expect(zone("District of Columbia").zipCodes).toEqual(
      expect.arrayContaining(["20001", "20002", "20009", "20016", "20020", "20032", "20037"]),
    );
    expect(zone("Arlington County").zipCodes).toEqual(expect.arrayContaining(["22201", "22207"]));
    expect(zone("City of Alexandria").zipCodes).toEqual(expect.arrayContaining(["22301", "22314"]));
    // Alexandria post-office ZIPs that lie in Fairfax County.
    expect(zone("Fairfax County").zipCodes).toEqual(
      expect.arrayContaining(["22306", "22309", "22031", "22042", "22101", "22180", "20171"]),
    );
    // Rule 4 of the seed: the City of Fairfax takes its city hall's ZIP.
    expect(zone("City of Fairfax").zipCodes).toEqual(["22030"]);
    expect(zone("City of Falls Church").zipCodes).toEqual(["22046"]);
  });

  it("leaves out PO-box-only, single-organisation and out-of-area ZIPs", () => {
    const all = new Set(DELIVERY_AREA_SEED.flatMap((z) => z.zipCodes));
    for (const zip of [
      "20013", // DC PO boxes
      "20500", // the White House
      "20510", // the Senate
      "20057", // Georgetown University
      "20041", // Dulles Airport, filed under DC but in Virginia
      "22040", // Falls Church PO boxes
      "22035", // Fairfax County Government Center
      "22060", // Fort Belvoir
      "22211", // Fort Myer
      "23220", // Richmond
      "20166", // Sterling, Loudoun County
      "20814", // Bethesda, Maryland
    ]) {
      expect(all.has(zip), zip).toBe(false);
    }
  });
});
