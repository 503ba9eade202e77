import { describe, expect, it } from "vitest";
import {
  DELIVERY_AREA_WORDS,
  deliveryAreaRefusalMessage,
  normalizeZip,
  parseZipList,
  zipRefusalMessage,
  zipsInTwoZones,
  zoneForZip,
} from "./delivery-area.ts";
import { DELIVERY_AREA_SEED } from "./delivery-area-seed.ts";

describe("normalizeZip", () => {
  it.each([
    ["20001", "20001"],
    [" 20001 ", "20001"],
    ["20001-1234", "20001"],
    ["\t22201-0001\n", "22201"],
  ])("accepts 5 digits, surrounding spaces and ZIP+4: %j", (input, zip) => {
    expect(normalizeZip(input)).toBe(zip);
  });

  it("rejects anything else", () => {
    for (const input of [
      "",
      "   ",
      "2000",
      "200011",
      "200011234",
      "20001-123",
      "20001-12345",
      "20001 1234",
      "2OOO1",
      "DC 20001",
      "20 001",
      "٢٠٠٠١", // Arabic-Indic digits are not ASCII digits
      "-20001",
    ]) {
      expect(normalizeZip(input), JSON.stringify(input)).toBeNull();
    }
  });
});

describe("zoneForZip over the seeded area", () => {
  const zones = DELIVERY_AREA_SEED;

  it("finds the zone of known ZIPs", () => {
    const zoneName = (zip: string, state: "DC" | "VA") => {
      const result = zoneForZip(zones, zip, state);
      return result.ok ? result.zone.name : result.reason;
    };
    expect(zoneName("20001", "DC")).toBe("District of Columbia");
    expect(zoneName(" 20001-1234 ", "DC")).toBe("District of Columbia");
    expect(zoneName("22201", "VA")).toBe("Arlington County");
    expect(zoneName("22314", "VA")).toBe("City of Alexandria");
    expect(zoneName("22030", "VA")).toBe("City of Fairfax");
    expect(zoneName("22031", "VA")).toBe("Fairfax County");
    expect(zoneName("22046", "VA")).toBe("City of Falls Church");
  });

  it.each([
    [
      "23220",
      "VA",
      "outside-area",
      "We don't deliver to 23220 yet. We deliver in Washington DC and Northern Virginia.",
    ],
    ["20001", "VA", "wrong-state", "20001 is not a Virginia ZIP code. Check the state and the ZIP."],
    ["22201", "DC", "wrong-state", null],
  ] as const)("refuses %s in %s as %s, with the issue's exact message", (zip, state, reason, message) => {
    const result = zoneForZip(zones, zip, state);
    expect(result).toEqual({ ok: false, reason, zip });
    if (result.ok) throw new Error("unreachable");
    if (message) expect(zipRefusalMessage(result, state)).toBe(message);
  });

  it("says where the shop delivers when the state is unknown", () => {
    expect(deliveryAreaRefusalMessage("23220")).toBe(
      "We don't deliver to 23220 yet. We deliver in Washington DC and Northern Virginia.",
    );
    expect(DELIVERY_AREA_WORDS).toBe("Washington DC and Northern Virginia");
  });

  it("refuses malformed input as not a ZIP", () => {
    const result = zoneForZip(zones, "2020", "DC");
    expect(result).toEqual({ ok: false, reason: "not-a-zip", zip: null });
    if (result.ok) throw new Error("unreachable");
    expect(zipRefusalMessage(result, "DC")).toBe("Enter a 5-digit ZIP code");
  });

  it("ignores inactive zones", () => {
    const withArlingtonOff = zones.map((zone) =>
      zone.name === "Arlington County" ? { ...zone, active: false } : zone,
    );
    expect(zoneForZip(withArlingtonOff, "22201", "VA")).toEqual({
      ok: false,
      reason: "outside-area",
      zip: "22201",
    });
    expect(zoneForZip(withArlingtonOff, "22314", "VA").ok).toBe(true);
  });

  it("picks the zone of the chosen state when staff list a ZIP in two states' zones", () => {
    const zonesWithOverlap = [
      { name: "A", state: "DC" as const, active: true, zipCodes: ["20001"] },
      { name: "B", state: "VA" as const, active: true, zipCodes: ["20001"] },
    ];
    const result = zoneForZip(zonesWithOverlap, "20001", "VA");
    expect(result.ok && result.zone.name).toBe("B");
  });

  it("builds the message with configured area words", () => {
    expect(deliveryAreaRefusalMessage("21201", "the DC area")).toBe(
      "We don't deliver to 21201 yet. We deliver in the DC area.",
    );
  });
});

describe("parseZipList", () => {
  it("reads a pasted list in any separator, cuts ZIP+4, sorts and drops repeats", () => {
    expect(parseZipList("22314\n22301, 22302-1234;22314  20001\r\n")).toEqual({
      zipCodes: ["20001", "22301", "22302", "22314"],
      invalid: [],
    });
  });

  it("reports the pieces that are not ZIPs", () => {
    expect(parseZipList("22314 2230 abcde 223011")).toEqual({
      zipCodes: ["22314"],
      invalid: ["2230", "abcde", "223011"],
    });
    expect(parseZipList("  ")).toEqual({ zipCodes: [], invalid: [] });
  });
});

describe("zipsInTwoZones", () => {
  it("finds none in the seeded area", () => {
    expect(zipsInTwoZones(DELIVERY_AREA_SEED)).toEqual([]);
  });

  it("names the active zones sharing a ZIP and ignores inactive ones", () => {
    const zones = [
      { name: "A", state: "VA" as const, active: true, zipCodes: ["22030", "22031"] },
      { name: "B", state: "VA" as const, active: true, zipCodes: ["22031", "22031"] },
      { name: "C", state: "VA" as const, active: false, zipCodes: ["22030"] },
    ];
    expect(zipsInTwoZones(zones)).toEqual([{ zip: "22031", zones: ["A", "B"] }]);
  });
});
