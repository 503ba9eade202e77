import { describe, expect, it } from "vitest";
import {
  CATEGORY_EFFECT_FILTERS,
  categoryPageBySlug,
  EFFECT_PAGES,
  pageSlug,
  parseEffect,
  parsePage,
  parseSearch,
  productsAvailable,
  strainEffect,
  strainForEffectFilter,
} from "./storefront.ts";

describe("strain to effect on category pages (K-3)", () => {
  it.each([
    ["Sativa", "Uplifted"],
    ["Indica", "Relaxed"],
    ["Hybrid", "Balanced"],
    [null, null],
    ["CBD", null],
  ])("maps the first match: %s gives %s", (strain, effect) => {
    expect(strainEffect(strain)).toBe(effect);
  });

  it("offers only effects some strain gives, so no filter is always empty", () => {
    expect(CATEGORY_EFFECT_FILTERS).toEqual(["Uplifted", "Relaxed", "Balanced"]);
    expect(strainForEffectFilter("Energetic")).toBeNull();
    expect(strainForEffectFilter("Calm")).toBeNull();
    expect(strainForEffectFilter("Uplifted")).toBe("Sativa");
  });
});

describe("effect pages (K-2 table)", () => {
  it("load the table's strains", () => {
    expect(EFFECT_PAGES.uplifted?.strains).toEqual(["Sativa"]);
    expect(EFFECT_PAGES.energetic?.strains).toEqual(["Sativa"]);
    expect(EFFECT_PAGES.relaxed?.strains).toEqual(["Indica", "Hybrid"]);
    expect(EFFECT_PAGES.calm?.strains).toEqual(["Hybrid"]);
    expect(EFFECT_PAGES.balanced?.strains).toEqual(["Hybrid"]);
    expect(EFFECT_PAGES.relaxed?.emptyText).toBe("No relaxing products found.");
    expect(EFFECT_PAGES.uplifted?.emptyText).toBe("No uplifting products found");
  });
});

describe("request parsing", () => {
  it("reads page, search and effect safely", () => {
    expect(parsePage(null)).toBe(1);
    expect(parsePage("3")).toBe(3);
    expect(parsePage("-2")).toBe(1);
    expect(parsePage("abc")).toBe(1);
    expect(parsePage("100000")).toBe(100);
    expect(parseSearch("  kush  ")).toBe("kush");
    expect(parseSearch("x".repeat(500))).toHaveLength(100);
    expect(parseSearch("kush\u0000")).toBe("kush");
    expect(parseSearch("\u0000\u0007\u001b[2J\u007f\u009b")).toBe("[2J");
    expect(parseSearch("blue\r\n\tdream")).toBe("blue dream");
    expect(parseEffect("uplifted")).toBe("Uplifted");
    expect(parseEffect("sleepy")).toBeNull();
  });

  it("finds the page slug also in single-fetch data URLs", () => {
    expect(pageSlug("/flower")).toBe("flower");
    expect(pageSlug("/uplifted")).toBe("uplifted");
    expect(categoryPageBySlug("deals")).toMatchObject({ name: "Deals", dealsOnly: true });
    expect(categoryPageBySlug("nope")).toBeUndefined();
  });

  it("words the count", () => {
    expect(productsAvailable(1)).toBe("1 product available");
    expect(productsAvailable(24)).toBe("24 products available");
  });
});
