/**
 * The demo catalogue: realistic products for a fresh shop, the seed and the benchmarks.
 * Pure and deterministic: the same count always gives the same products, and a larger count
 * starts with the products of a smaller one.
 */

import { type Category, STRAINS, type Strain } from "#app/features/catalog/catalog.ts";
import { hashString, pick, prng, type Random } from "#app/utils/seeded-random.ts";
import {
  BASE_PRODUCTS,
  type BaseProduct,
  FLAVOURS,
  MUSHROOM_VARIETIES,
  SIZE_TEMPLATES,
  STRAIN_FEEL,
  STRAIN_FIRST,
  STRAIN_SECOND,
  VARIANT_CATEGORIES,
} from "./demo-catalog-data.ts";

export type DemoSize = {
  size: string;
  priceCents: number;
  salePriceCents: number | null;
  inventoryCount: number;
};

export type DemoProduct = {
  name: string;
  description: string;
  category: Category;
  strain: Strain | null;
  /** Flower only (K-3). */
  thcPercentage: number | null;
  /** Everything but Flower; none for mushrooms, which contain no THC. */
  thcMg: number | null;
  isFeatured: boolean;
  isDeal: boolean;
  sizes: DemoSize[];
  /** How long before seeding the product was "added": unique, so newest-first order is stable. */
  ageMinutes: number;
};

export const DEMO_PRODUCT_COUNT = 64;

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

function between(random: Random, min: number, max: number) {
  return min + Math.floor(random() * (max - min + 1));
}

// ---------------------------------------------------------------------------------------------
// Price lists (integer cents, typical Washington DC delivery prices)

function generatedStrainName(random: Random) {
  return `${pick(random, STRAIN_FIRST)} ${pick(random, STRAIN_SECOND)}`;
}

function variantBase(index: number, random: Random): BaseProduct {
  const category = VARIANT_CATEGORIES[index % VARIANT_CATEGORIES.length] as Category;
  const strain = pick(random, STRAINS);
  const feel = pick(random, STRAIN_FEEL[strain]);
  const strainName = generatedStrainName(random);
  const flavour = pick(random, FLAVOURS);
  switch (category) {
    case "Flower": {
      const tier = pick(random, [
        "flowerValue",
        "flowerStandard",
        "flowerStandard",
        "flowerPremium",
      ] as const);
      return {
        name: strainName,
        category,
        strain,
        thc: Math.round((17 + random() * 14) * 10) / 10,
        template: tier,
        sizes: between(random, 2, 4),
        description: `Small-batch ${strain.toLowerCase()} flower with a ${flavour.toLowerCase()} nose. Hand-trimmed, slow-cured and ${feel}.`,
      };
    }
    case "Edibles": {
      const kind = pick(random, ["gummies", "gummies", "chocolate", "chews", "drink"] as const);
      const name =
        kind === "gummies"
          ? `${flavour} Gummies`
          : kind === "chocolate"
            ? `${pick(random, ["Dark", "Milk", "White"] as const)} Chocolate ${flavour} Bar`
            : kind === "chews"
              ? `${flavour} Fruit Chews`
              : `Sparkling ${flavour} Seltzer`;
      return {
        name,
        category,
        strain: random() < 0.8 ? strain : null,
        thc: kind === "drink" ? 10 : 100,
        template: kind,
        description:
          kind === "drink"
            ? `A crisp ${flavour.toLowerCase()} seltzer with 10 mg THC per can. Fast-acting and ${feel}.`
            : `${flavour} flavour with 10 mg THC per piece. Evenly dosed, ${feel}.`,
      };
    }
    case "Pre Rolls": {
      const kind = pick(random, ["preRoll", "preRoll", "infusedPreRoll", "miniPreRolls", "blunt"] as const);
      const suffix = {
        preRoll: "Pre Roll",
        infusedPreRoll: "Infused Pre Roll",
        miniPreRolls: "Mini Pre Rolls",
        blunt: "Blunt",
      }[kind];
      return {
        name: `${strainName} ${suffix}`,
        category,
        strain,
        thc:
          { preRoll: 220, infusedPreRoll: 420, miniPreRolls: 110, blunt: 460 }[kind] + between(random, 0, 40),
        template: kind,
        description: `Whole-flower ${strainName} rolled in unbleached paper. Even burn, ${feel}.`,
      };
    }
    case "Cartridges": {
      const kind = pick(random, ["distillateCart", "liveResinCart", "disposable"] as const);
      const suffix = {
        distillateCart: "Distillate Cartridge",
        liveResinCart: "Live Resin Cartridge",
        disposable: "Disposable Vape",
      }[kind];
      return {
        name: `${strainName} ${suffix}`,
        category,
        strain,
        thc: between(random, 76, 92) * 10,
        template: kind,
        description: `${strainName} terpenes with a smooth ceramic-coil pull. Discreet, flavourful and ${feel}.`,
      };
    }
    case "Concentrates": {
      const texture = pick(random, [
        "Badder",
        "Sugar",
        "Shatter",
        "Live Rosin",
        "Diamonds",
        "Crumble",
      ] as const);
      return {
        name: `${strainName} ${texture}`,
        category,
        strain,
        thc: between(random, 70, 92) * 10,
        template: pick(random, ["concentrateValue", "concentrateStandard", "concentratePremium"] as const),
        description: `${texture} extracted from fresh ${strainName}. Terpene-rich, potent and ${feel}.`,
      };
    }
    case "Mushrooms": {
      const variety = pick(random, MUSHROOM_VARIETIES);
      const kind = pick(random, [
        "driedMushrooms",
        "driedMushrooms",
        "mushroomChocolate",
        "mushroomGummies",
        "capsules",
      ] as const);
      const name = {
        driedMushrooms: `${variety} ${pick(random, ["Dried Mushrooms", "Whole Caps", "Cubensis"] as const)}`,
        mushroomChocolate: `${variety} ${pick(random, ["Dark", "Milk", "Oat Milk"] as const)} Chocolate`,
        mushroomGummies: `${variety} ${flavour} Gummies`,
        capsules: `${variety} Microdose Capsules`,
      }[kind];
      return {
        name,
        category,
        strain: null,
        thc: null,
        template: kind,
        description: `${variety} mushrooms, carefully dried and measured. Start low and go slow.`,
      };
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Building products

function roundToDollar(cents: number) {
  return Math.max(100, Math.round(cents / 100) * 100);
}

function buildProduct(
  base: BaseProduct,
  random: Random,
  extra: { featured: boolean; deal: boolean; sale: number },
) {
  const template = SIZE_TEMPLATES[base.template];
  const sizeCount = Math.min(Math.max(base.sizes ?? template.length, 1), template.length);
  const isDeal = base.deal ?? extra.deal;
  const sale = base.sale ?? (isDeal ? 0.15 : extra.sale);
  const sizes: DemoSize[] = template.slice(0, sizeCount).map(([label, priceCents]) => ({
    size: label,
    priceCents,
    salePriceCents: sale > 0 ? roundToDollar(priceCents * (1 - sale)) : null,
    // Bigger sizes are scarcer.
    inventoryCount: label === base.soldOut ? 0 : between(random, 5, priceCents > 10000 ? 20 : 60),
  }));
  const isFlower = base.category === "Flower";
  return {
    name: base.name,
    description: base.description,
    category: base.category,
    strain: base.strain,
    thcPercentage: isFlower ? base.thc : null,
    thcMg: isFlower ? null : base.thc,
    isFeatured: base.featured ?? extra.featured,
    isDeal,
    sizes,
  };
}

/** The hand-written products in a stable, shuffled order, so newest-first mixes the categories. */
const SHUFFLED_BASE = (() => {
  const random = prng(20_250_601);
  const list = [...BASE_PRODUCTS];
  for (let index = list.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [list[index], list[other]] = [list[other] as BaseProduct, list[index] as BaseProduct];
  }
  return list;
})();

/**
 * `count` demo products (64 by default): the hand-written catalogue first, then plausible,
 * uniquely named variants. Deterministic; `demoProducts(n)` is a prefix of `demoProducts(m)` for n ≤ m.
 */
export function demoProducts(count = DEMO_PRODUCT_COUNT): DemoProduct[] {
  const total = Math.max(0, Math.floor(count));
  const names = new Set<string>();
  const result: DemoProduct[] = [];
  for (let index = 0; index < total; index++) {
    const random = prng(hashString(`capital-grown-demo-${index}`));
    let base: BaseProduct;
    let extra = { featured: false, deal: false, sale: 0 };
    const handWritten = SHUFFLED_BASE[index];
    if (handWritten) {
      base = handWritten;
    } else {
      base = variantBase(index, random);
      let name = base.name;
      // A phenotype number reads naturally on a strain; other products get a batch number.
      const numbered = base.strain && base.category !== "Edibles";
      while (names.has(name.toLowerCase())) {
        const number = between(random, 2, 99);
        name = numbered ? `${base.name} #${number}` : `${base.name} (Batch ${number})`;
      }
      base = { ...base, name };
      const roll = random();
      extra = {
        featured: roll < 0.06,
        deal: roll > 0.93,
        sale: random() < 0.2 ? pick(random, [0.1, 0.15, 0.2, 0.25]) : 0,
      };
      if (random() < 0.03) base = { ...base, soldOut: SIZE_TEMPLATES[base.template][0][0] };
    }
    names.add(base.name.toLowerCase());
    result.push({
      ...buildProduct(base, random, extra),
      // Unique by construction: each product gets its own 3-hour window, older as the index grows.
      ageMinutes: index * 180 + between(random, 0, 150),
    });
  }
  return result;
}
