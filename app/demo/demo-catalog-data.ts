/**
 * The demo catalogue's data: size and price templates, the hand-written base products and the word
 * lists the generator (demo-catalog.ts) draws variants from. Data only: no logic here.
 */

import type { Category, Strain } from "#app/features/catalog/catalog.ts";

export type SizeTemplate = readonly [label: string, priceCents: number];

export const SIZE_TEMPLATES = {
  flowerValue: [
    ["3.5g", 3500],
    ["7g", 6500],
    ["14g", 12000],
    ["28g", 22000],
  ],
  flowerStandard: [
    ["3.5g", 4500],
    ["7g", 8000],
    ["14g", 15000],
    ["28g", 28000],
  ],
  flowerPremium: [
    ["3.5g", 5500],
    ["7g", 10000],
    ["14g", 18000],
    ["28g", 32000],
  ],
  gummies: [
    ["10 pack", 2500],
    ["20 pack", 4500],
  ],
  chocolate: [
    ["1 bar", 2500],
    ["3 bars", 6500],
  ],
  drink: [
    ["Single can", 1000],
    ["4 pack", 3500],
  ],
  chews: [
    ["10 pack", 2000],
    ["20 pack", 3800],
  ],
  preRoll: [
    ["1g joint", 1200],
    ["3 x 1g pack", 3000],
    ["5 x 1g pack", 4500],
  ],
  infusedPreRoll: [
    ["1g infused", 2000],
    ["3 x 1g infused", 5500],
  ],
  miniPreRolls: [
    ["5 x 0.5g pack", 4000],
    ["10 x 0.5g pack", 7000],
  ],
  blunt: [
    ["2g blunt", 2500],
    ["2 x 2g blunts", 4500],
  ],
  distillateCart: [
    ["0.5g", 3500],
    ["1g", 6000],
  ],
  liveResinCart: [
    ["0.5g", 4500],
    ["1g", 8000],
  ],
  disposable: [
    ["1g disposable", 5500],
    ["2g disposable", 9000],
  ],
  concentrateValue: [
    ["1g", 3500],
    ["2g", 6500],
    ["3.5g", 10000],
  ],
  concentrateStandard: [
    ["1g", 5000],
    ["2g", 9000],
  ],
  concentratePremium: [
    ["1g", 7000],
    ["2g", 13000],
  ],
  driedMushrooms: [
    ["3.5g", 4000],
    ["7g", 7000],
    ["14g", 12500],
  ],
  mushroomChocolate: [
    ["4g bar", 4500],
    ["2 x 4g bars", 8000],
  ],
  mushroomGummies: [
    ["10 pack", 3000],
    ["20 pack", 5500],
  ],
  capsules: [
    ["10 capsules", 3500],
    ["30 capsules", 9000],
  ],
  tea: [
    ["10 tea bags", 3500],
    ["20 tea bags", 6000],
  ],
} as const satisfies Record<string, readonly SizeTemplate[]>;

export type SizeTemplateName = keyof typeof SIZE_TEMPLATES;

// ---------------------------------------------------------------------------------------------
// The hand-written catalogue

export type BaseProduct = {
  name: string;
  category: Category;
  strain: Strain | null;
  /** THC % for Flower, THC mg for the rest, null for mushrooms. */
  thc: number | null;
  template: SizeTemplateName;
  /** How many of the template's sizes to offer (default: all). */
  sizes?: number;
  description: string;
  featured?: boolean;
  deal?: boolean;
  /** Fraction off on every size (deals default to 15 %). */
  sale?: number;
  /** Label of a size that is sold out. */
  soldOut?: string;
};

export const BASE_PRODUCTS: BaseProduct[] = [
  // Flower
  {
    name: "Blue Dream",
    category: "Flower",
    strain: "Hybrid",
    thc: 21.4,
    template: "flowerStandard",
    description:
      "A sativa-leaning classic with sweet blueberry and soft herbal notes. Clear-headed, gently uplifting and easy to enjoy any time of day.",
    featured: true,
  },
  {
    name: "Gelato #41",
    category: "Flower",
    strain: "Hybrid",
    thc: 27.8,
    template: "flowerPremium",
    sizes: 3,
    description:
      "Dense, frosty purple buds with a creamy sherbet and citrus nose. A balanced, euphoric high that settles into calm focus.",
    featured: true,
  },
  {
    name: "Granddaddy Purple",
    category: "Flower",
    strain: "Indica",
    thc: 23.1,
    template: "flowerStandard",
    description:
      "Grape and berry aromas over an earthy base. Deeply relaxing and a long-time favourite for winding down after work.",
    sale: 0.15,
  },
  {
    name: "Sour Diesel",
    category: "Flower",
    strain: "Sativa",
    thc: 22.6,
    template: "flowerValue",
    description:
      "Pungent, fuel-forward and unmistakable. Fast-acting, energising and social: a daytime staple at a value price.",
    deal: true,
    sale: 0.2,
  },
  {
    name: "Wedding Cake",
    category: "Flower",
    strain: "Indica",
    thc: 26.3,
    template: "flowerPremium",
    description:
      "Rich vanilla-dough sweetness with a peppery finish. Heavy-hitting, soothing and perfect for a slow evening.",
    featured: true,
  },
  {
    name: "Jack Herer",
    category: "Flower",
    strain: "Sativa",
    thc: 20.9,
    template: "flowerStandard",
    sizes: 3,
    description:
      "Spicy pine and citrus from a legendary sativa. Bright, creative and clear, great for getting things done.",
    featured: true,
  },
  {
    name: "Northern Lights",
    category: "Flower",
    strain: "Indica",
    thc: 19.5,
    template: "flowerValue",
    description: "Sweet, earthy and resinous. A smooth, body-melting indica that has earned its reputation.",
    deal: true,
  },
  {
    name: "Girl Scout Cookies",
    category: "Flower",
    strain: "Hybrid",
    thc: 24.7,
    template: "flowerStandard",
    description:
      "Minty, sweet and earthy with a cookie-dough finish. Full-body relaxation with a happy, euphoric lift.",
    soldOut: "28g",
  },
  {
    name: "Green Crack",
    category: "Flower",
    strain: "Sativa",
    thc: 23.8,
    template: "flowerStandard",
    sizes: 2,
    description:
      "Tangy mango and citrus with a sharp, invigorating buzz. Keeps you alert, focused and moving.",
  },
  {
    name: "Purple Punch",
    category: "Flower",
    strain: "Indica",
    thc: 22.2,
    template: "flowerStandard",
    sizes: 3,
    description:
      "Grape candy and blueberry muffin on the nose. A sedating, dessert-like indica made for movie nights.",
    sale: 0.1,
  },
  {
    name: "Runtz",
    category: "Flower",
    strain: "Hybrid",
    thc: 29.4,
    template: "flowerPremium",
    sizes: 3,
    description:
      "Candy-sweet, colourful buds coated in trichomes. Smooth smoke and a long-lasting, euphoric balance.",
    featured: true,
  },
  {
    name: "Durban Poison",
    category: "Flower",
    strain: "Sativa",
    thc: 24,
    template: "flowerStandard",
    sizes: 3,
    description:
      "A pure South African sativa with sweet anise notes. Crisp, energetic and great for daytime.",
  },
  {
    name: "Ice Cream Cake",
    category: "Flower",
    strain: "Indica",
    thc: 25.6,
    template: "flowerPremium",
    sizes: 2,
    description: "Creamy vanilla and sugary dough. Calming, heavy-lidded relaxation that eases into sleep.",
  },
  {
    name: "Super Lemon Haze",
    category: "Flower",
    strain: "Sativa",
    thc: 21.7,
    template: "flowerStandard",
    description: "Zesty lemon peel and sweet haze. Lively, talkative and upbeat, with a clean finish.",
    sale: 0.15,
  },
  {
    name: "Zkittlez",
    category: "Flower",
    strain: "Indica",
    thc: 20.3,
    template: "flowerValue",
    sizes: 3,
    description: "A tropical fruit-candy bouquet with a mellow, calming body feel. Easygoing and flavourful.",
  },
  {
    name: "Apple Fritter",
    category: "Flower",
    strain: "Hybrid",
    thc: 30.8,
    template: "flowerPremium",
    sizes: 2,
    description:
      "Baked apple and sweet pastry with an earthy undertone. Potent, cheerful and deeply relaxing in equal measure.",
    featured: true,
  },
  // Edibles
  {
    name: "Watermelon Sour Gummies",
    category: "Edibles",
    strain: "Sativa",
    thc: 100,
    template: "gummies",
    description:
      "Sweet-and-sour watermelon gummies, 10 mg each. Vegan, evenly dosed and made with sativa-leaning distillate.",
    featured: true,
  },
  {
    name: "Midnight Berry Sleep Gummies",
    category: "Edibles",
    strain: "Indica",
    thc: 100,
    template: "gummies",
    description:
      "Mixed berry gummies with 10 mg THC and 2 mg CBN each. Made for a calm evening and a restful night.",
    deal: true,
    sale: 0.2,
  },
  {
    name: "Dark Chocolate Sea Salt Bar",
    category: "Edibles",
    strain: "Hybrid",
    thc: 100,
    template: "chocolate",
    description:
      "Single-origin 70% dark chocolate finished with flaky sea salt. Ten scored 10 mg squares for easy dosing.",
    featured: true,
  },
  {
    name: "Peach Bellini Gummies",
    category: "Edibles",
    strain: "Hybrid",
    thc: 100,
    template: "gummies",
    description: "Juicy white peach with a sparkling finish. 10 mg per gummy for a bright, balanced buzz.",
  },
  {
    name: "Mango Chili Gummies",
    category: "Edibles",
    strain: "Sativa",
    thc: 100,
    template: "gummies",
    description: "Ripe mango with a gentle chili-lime kick. 10 mg each, sugar-dusted and vegan.",
    sale: 0.12,
  },
  {
    name: "Cookies & Cream Milk Chocolate",
    category: "Edibles",
    strain: null,
    thc: 100,
    template: "chocolate",
    description: "Creamy milk chocolate studded with cookie crumbs. Ten 10 mg pieces per bar.",
  },
  {
    name: "Sparkling Grapefruit Seltzer",
    category: "Edibles",
    strain: null,
    thc: 10,
    template: "drink",
    description:
      "A crisp, zero-sugar grapefruit seltzer with 10 mg THC per can. Fast-acting and refreshing, a sociable alternative to a drink.",
  },
  {
    name: "Salted Caramel Chews",
    category: "Edibles",
    strain: "Indica",
    thc: 100,
    template: "chews",
    description: "Soft, buttery caramels with a pinch of salt. 10 mg each, individually wrapped.",
  },
  {
    name: "Blue Raspberry 1:1 Gummies",
    category: "Edibles",
    strain: "Hybrid",
    thc: 100,
    template: "gummies",
    description: "Blue raspberry gummies with 10 mg THC and 10 mg CBD each. A mellow, clear-headed balance.",
    deal: true,
  },
  {
    name: "Snickerdoodle Cookie Bites",
    category: "Edibles",
    strain: null,
    thc: 100,
    template: "chews",
    description: "Bite-size cinnamon sugar cookies baked in small batches. 10 mg per bite.",
  },
  {
    name: "Strawberry Lemonade Gummies",
    category: "Edibles",
    strain: "Sativa",
    thc: 100,
    template: "gummies",
    description: "Tart lemonade and ripe strawberry in a soft gummy. 10 mg each for a sunny daytime lift.",
    soldOut: "20 pack",
  },
  // Pre Rolls
  {
    name: "Blue Dream Pre Roll",
    category: "Pre Rolls",
    strain: "Hybrid",
    thc: 230,
    template: "preRoll",
    description:
      "Ground whole flower, no shake or trim, hand-rolled in unbleached paper with a glass-smooth draw.",
  },
  {
    name: "Diamond-Infused Runtz Pre Roll",
    category: "Pre Rolls",
    strain: "Hybrid",
    thc: 450,
    template: "infusedPreRoll",
    description:
      "Runtz flower infused with THCa diamonds and rolled in kief. Slow-burning, flavourful and seriously strong.",
    featured: true,
  },
  {
    name: "Sour Diesel Mini Dogwalkers",
    category: "Pre Rolls",
    strain: "Sativa",
    thc: 115,
    template: "miniPreRolls",
    description:
      "Half-gram minis for a quick session on the go. Zesty, energising Sour Diesel in every pack.",
    deal: true,
  },
  {
    name: "House Joint: Indica Blend",
    category: "Pre Rolls",
    strain: "Indica",
    thc: 200,
    template: "preRoll",
    description:
      "Our house blend of top-shelf indica flower, rolled fresh every week. Smooth, relaxing and easy on the wallet.",
    deal: true,
    sale: 0.2,
  },
  {
    name: "House Joint: Sativa Blend",
    category: "Pre Rolls",
    strain: "Sativa",
    thc: 200,
    template: "preRoll",
    description:
      "A bright, citrusy blend of our best sativa flower. Rolled fresh weekly for an upbeat afternoon.",
  },
  {
    name: "Pineapple Express Pre Roll",
    category: "Pre Rolls",
    strain: "Sativa",
    thc: 240,
    template: "preRoll",
    sizes: 2,
    description: "Tropical pineapple and cedar. A cheerful, creative sativa in a perfectly packed cone.",
  },
  {
    name: "OG Kush Pre Roll",
    category: "Pre Rolls",
    strain: "Indica",
    thc: 250,
    template: "preRoll",
    sizes: 2,
    description: "Earthy pine and lemon fuel from the West Coast legend. Stress-melting and heavy.",
  },
  {
    name: "Strawberry Cough Pre Roll",
    category: "Pre Rolls",
    strain: "Sativa",
    thc: 210,
    template: "preRoll",
    description: "Sweet strawberry aroma with a smooth, uplifting smoke. Great for a social afternoon.",
  },
  {
    name: "Forbidden Fruit Blunt",
    category: "Pre Rolls",
    strain: "Indica",
    thc: 480,
    template: "blunt",
    description:
      "Two grams of cherry-and-citrus Forbidden Fruit in a slow-burning hemp wrap. Made for sharing.",
    featured: true,
  },
  {
    name: "Mimosa Kief-Dipped Pre Roll",
    category: "Pre Rolls",
    strain: "Sativa",
    thc: 380,
    template: "infusedPreRoll",
    sizes: 1,
    description: "Orange-zest Mimosa flower rolled in golden kief. Bright, breezy and a little extra.",
  },
  // Cartridges
  {
    name: "Blue Dream Live Resin Cartridge",
    category: "Cartridges",
    strain: "Hybrid",
    thc: 820,
    template: "liveResinCart",
    description:
      "Flash-frozen live resin that keeps the true berry terpenes. 510-thread, ceramic coil, no additives.",
    featured: true,
  },
  {
    name: "Pineapple Express Distillate Cartridge",
    category: "Cartridges",
    strain: "Sativa",
    thc: 880,
    template: "distillateCart",
    description:
      "High-purity distillate with strain-specific terpenes. Juicy pineapple flavour and a clear, happy high.",
    sale: 0.15,
  },
  {
    name: "Granddaddy Purple Cartridge",
    category: "Cartridges",
    strain: "Indica",
    thc: 860,
    template: "distillateCart",
    description: "Grape-forward distillate for smooth, discreet evening relaxation. Fits any 510 battery.",
  },
  {
    name: "Strawberry Cough Live Resin Cartridge",
    category: "Cartridges",
    strain: "Sativa",
    thc: 790,
    template: "liveResinCart",
    description:
      "Fresh-frozen strawberry terpenes and a bright, chatty lift. Full-spectrum and solvent-free finish.",
  },
  {
    name: "Mango Kush All-in-One Disposable",
    category: "Cartridges",
    strain: "Indica",
    thc: 900,
    template: "disposable",
    description: "Rechargeable, ready-to-use vape with sweet mango and kush. No battery or setup needed.",
    deal: true,
  },
  {
    name: "Lemon Cherry Gelato Liquid Diamonds",
    category: "Cartridges",
    strain: "Hybrid",
    thc: 910,
    template: "liveResinCart",
    description:
      "THCa diamonds in their own live terpene sauce. Tart cherry, lemon and cream with top-shelf potency.",
    featured: true,
  },
  {
    name: "Maui Wowie Cartridge",
    category: "Cartridges",
    strain: "Sativa",
    thc: 850,
    template: "distillateCart",
    description: "Tropical, island-sweet and energising. A reliable daytime cart at an everyday price.",
  },
  {
    name: "Bubba Kush Cartridge",
    category: "Cartridges",
    strain: "Indica",
    thc: 840,
    template: "distillateCart",
    description: "Chocolate, coffee and earthy kush notes. Heavy, tranquil and great before bed.",
    soldOut: "0.5g",
  },
  {
    name: "Watermelon Zkittlez Disposable",
    category: "Cartridges",
    strain: "Hybrid",
    thc: 880,
    template: "disposable",
    sizes: 1,
    description: "Candy watermelon in a slim, rechargeable all-in-one. Smooth pulls from first to last.",
  },
  {
    name: "Tangie Live Rosin Cartridge",
    category: "Cartridges",
    strain: "Sativa",
    thc: 760,
    template: "liveResinCart",
    description:
      "Solventless live rosin pressed from fresh-frozen Tangie. Pure tangerine flavour, nothing added.",
  },
  // Concentrates
  {
    name: "Gelato Live Resin Badder",
    category: "Concentrates",
    strain: "Hybrid",
    thc: 780,
    template: "concentrateStandard",
    description:
      "Whipped, cake-frosting texture that is easy to scoop. Creamy gelato terpenes and a balanced high.",
    featured: true,
  },
  {
    name: "Wedding Cake Shatter",
    category: "Concentrates",
    strain: "Indica",
    thc: 820,
    template: "concentrateValue",
    description:
      "Glassy, golden shatter that snaps clean. Sweet vanilla flavour and a deep, calming body effect.",
    deal: true,
  },
  {
    name: "GMO Cookies Live Rosin",
    category: "Concentrates",
    strain: "Indica",
    thc: 760,
    template: "concentratePremium",
    description: "Cold-cured solventless rosin with savoury garlic-and-cookie funk. Connoisseur grade.",
  },
  {
    name: "Tropicana Cookies Sugar",
    category: "Concentrates",
    strain: "Sativa",
    thc: 790,
    template: "concentrateStandard",
    description: "Sparkling, sappy sugar bursting with orange terpenes. Bright, focused and flavourful.",
  },
  {
    name: "Gorilla Glue #4 Crumble",
    category: "Concentrates",
    strain: "Hybrid",
    thc: 750,
    template: "concentrateValue",
    sizes: 2,
    description: "Dry, honeycomb crumble that is easy to handle. Earthy, piney and famously potent.",
    sale: 0.15,
  },
  {
    name: "Papaya THCa Diamonds",
    category: "Concentrates",
    strain: "Indica",
    thc: 940,
    template: "concentratePremium",
    description: "Crystal-clear THCa diamonds with a splash of papaya terp sauce. For experienced consumers.",
  },
  {
    name: "Sherbet Budder",
    category: "Concentrates",
    strain: "Hybrid",
    thc: 770,
    template: "concentrateStandard",
    description: "Smooth, buttery budder with sweet citrus-sherbet flavour. Mellow, happy and easy-going.",
  },
  {
    name: "Super Silver Haze Hash Rosin",
    category: "Concentrates",
    strain: "Sativa",
    thc: 720,
    template: "concentratePremium",
    sizes: 1,
    description: "Six-star ice water hash pressed into rosin. Spicy citrus haze and a clear, electric lift.",
  },
  {
    name: "Banana Kush Wax",
    category: "Concentrates",
    strain: "Indica",
    thc: 740,
    template: "concentrateValue",
    description: "Soft, golden wax with ripe banana and kush spice. Relaxing and great value by the gram.",
  },
  // Mushrooms
  {
    name: "Golden Teacher Dried Mushrooms",
    category: "Mushrooms",
    strain: null,
    thc: null,
    template: "driedMushrooms",
    description:
      "Whole, carefully dried Golden Teacher caps and stems. Known for a gentle, insightful and balanced experience.",
    featured: true,
  },
  {
    name: "Blue Meanie Dried Mushrooms",
    category: "Mushrooms",
    strain: null,
    thc: null,
    template: "driedMushrooms",
    sizes: 2,
    description: "Small, potent caps with a distinctive blue bruising. Start low and go slow.",
  },
  {
    name: "B+ Cubensis Dried Mushrooms",
    category: "Mushrooms",
    strain: null,
    thc: null,
    template: "driedMushrooms",
    description: "A forgiving, beginner-friendly variety with large caramel caps. Mild, warm and uplifting.",
    deal: true,
  },
  {
    name: "Milk Chocolate Mushroom Bar",
    category: "Mushrooms",
    strain: null,
    thc: null,
    template: "mushroomChocolate",
    description: "Smooth Belgian milk chocolate in 16 scored pieces. An easy, great-tasting way to dose.",
  },
  {
    name: "Wild Berry Mushroom Gummies",
    category: "Mushrooms",
    strain: null,
    thc: null,
    template: "mushroomGummies",
    description: "Mixed berry gummies with evenly measured mushroom extract. Vegan and gluten-free.",
  },
  {
    name: "Microdose Capsules: Focus",
    category: "Mushrooms",
    strain: null,
    thc: null,
    template: "capsules",
    description: "Low-dose capsules blended with lion's mane for clarity and creativity through the day.",
  },
  {
    name: "Albino Avery Dried Mushrooms",
    category: "Mushrooms",
    strain: null,
    thc: null,
    template: "driedMushrooms",
    sizes: 1,
    description: "Pale, striking caps from a rare albino variety. Limited batches, often sold out.",
    soldOut: "3.5g",
  },
  {
    name: "Lemon Ginger Mushroom Tea",
    category: "Mushrooms",
    strain: null,
    thc: null,
    template: "tea",
    description:
      "Zesty lemon and warming ginger tea bags with a measured mushroom blend. Steep for 10 minutes.",
  },
];

// ---------------------------------------------------------------------------------------------
// Generated variants (count > 64)

export const STRAIN_FIRST = [
  "Lemon",
  "Cherry",
  "Purple",
  "Golden",
  "Frosted",
  "Mango",
  "Tropic",
  "Midnight",
  "Velvet",
  "Sunset",
  "Citrus",
  "Grape",
  "Cosmic",
  "Royal",
  "Wild",
  "Sour",
  "Electric",
  "Papaya",
  "Peach",
  "Blueberry",
  "Black Cherry",
  "Silver",
  "Jungle",
  "Candy",
  "Tangerine",
  "Ember",
  "Harbor",
  "Capitol",
] as const;

export const STRAIN_SECOND = [
  "Haze",
  "Kush",
  "Runtz",
  "Cookies",
  "Gelato",
  "Diesel",
  "Dream",
  "Cake",
  "OG",
  "Sherbet",
  "Punch",
  "Glue",
  "Breath",
  "Mints",
  "Pie",
  "Fritter",
  "Octane",
  "Zkittlez",
  "Chem",
  "Widow",
] as const;

export const FLAVOURS = [
  "Watermelon",
  "Blackberry",
  "Pink Lemonade",
  "Passion Fruit",
  "Green Apple",
  "Cherry Lime",
  "Tangerine",
  "Pomegranate",
  "Blood Orange",
  "Guava",
  "Pineapple Coconut",
  "Raspberry",
  "Key Lime",
  "Honeydew",
  "Lychee",
  "Cranberry",
] as const;

export const MUSHROOM_VARIETIES = [
  "Golden Teacher",
  "B+",
  "Blue Meanie",
  "Cambodian",
  "Mazatapec",
  "Ecuador",
  "Jack Frost",
  "Tidal Wave",
  "Amazonian",
  "Hillbilly",
  "Treasure Coast",
  "Costa Rican",
] as const;

export const STRAIN_FEEL: Record<Strain, readonly string[]> = {
  Sativa: ["bright and energising", "uplifting and creative", "clear-headed and social", "zesty and focused"],
  Indica: ["deeply relaxing", "calm and heavy-bodied", "soothing and sleepy", "mellow and tranquil"],
  Hybrid: ["balanced and euphoric", "smooth and versatile", "happy and easy-going", "relaxed yet clear"],
};

export const VARIANT_CATEGORIES: readonly Category[] = [
  "Flower",
  "Edibles",
  "Pre Rolls",
  "Flower",
  "Cartridges",
  "Concentrates",
  "Flower",
  "Edibles",
  "Mushrooms",
  "Cartridges",
  "Pre Rolls",
  "Flower",
];
