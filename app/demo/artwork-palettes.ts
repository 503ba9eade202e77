/**
 * The demo artwork's data (app/demo/artwork.server.ts draws with it): backdrop palettes, the
 * strains' accent colours and the candy colours picked by flavour words in a product's name.
 */

export type Backdrop = {
  top: string;
  bottom: string;
  glow: string;
  podiumTop: string;
  podiumSide: string;
  dark: boolean;
};

export const BACKDROPS: Backdrop[] = [
  // deep forest
  {
    top: "#1d5139",
    bottom: "#0a2218",
    glow: "#4fa877",
    podiumTop: "#2a6a4b",
    podiumSide: "#174431",
    dark: true,
  },
  // emerald
  {
    top: "#146350",
    bottom: "#062a22",
    glow: "#3cc39a",
    podiumTop: "#1d7a62",
    podiumSide: "#0f4a3b",
    dark: true,
  },
  // moss and olive
  {
    top: "#4a5a32",
    bottom: "#1c2414",
    glow: "#a3b96a",
    podiumTop: "#5d7040",
    podiumSide: "#394727",
    dark: true,
  },
  // warm sand
  {
    top: "#f6eddc",
    bottom: "#d8c29c",
    glow: "#fffaf0",
    podiumTop: "#efe3cb",
    podiumSide: "#cdb48a",
    dark: false,
  },
  // clay
  {
    top: "#f0dccb",
    bottom: "#c79b7a",
    glow: "#fff3e8",
    podiumTop: "#ecd3bf",
    podiumSide: "#b98a68",
    dark: false,
  },
  // sage
  {
    top: "#e3ecdc",
    bottom: "#a9bf9c",
    glow: "#f8fcf4",
    podiumTop: "#dbe7d2",
    podiumSide: "#98b089",
    dark: false,
  },
];

/** Strain colours, as the storefront's badges use them (Hybrid green, Indica blue-violet, Sativa yellow). */
export function accentFor(strain: string | null | undefined) {
  switch (strain) {
    case "Sativa":
      return { main: "#f4b63f", light: "#ffe3a3", hue: 40 };
    case "Indica":
      return { main: "#8f73e0", light: "#d4c8ff", hue: 258 };
    case "Hybrid":
      return { main: "#3fc48d", light: "#b9f2d6", hue: 155 };
    default:
      return { main: "#d9b27c", light: "#f7e4c4", hue: 35 };
  }
}

/** Flavour words in an edible's name and the hues of its candies. */
export const CANDY_HUES: [RegExp, number[]][] = [
  [/watermelon/, [350, 140, 355]],
  [/blue/, [210, 200, 220]],
  [/grapefruit/, [8, 350, 20]],
  [/berry|grape|midnight|blackberry|raspberry/, [280, 300, 330]],
  [/mango|peach|orange|tangerine|passion|guava/, [30, 20, 40]],
  [/lemon|pineapple|honeydew|lime/, [50, 75, 45]],
  [/strawberry|cherry|pink|pomegranate|cranberry/, [350, 5, 340]],
  [/apple/, [95, 80, 110]],
];
