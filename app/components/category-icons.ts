import type { IconName } from "#app/components/ui/icon.tsx";

/** The icon of each category chip and tile (home, the DC landing page and the listings). */
export const CATEGORY_ICONS: Record<string, IconName> = {
  All: "layout-grid",
  Flower: "leaf",
  Edibles: "cookie",
  "Pre Rolls": "cigarette",
  Cartridges: "pipette",
  Concentrates: "droplet",
  Mushrooms: "sprout",
  Deals: "tag",
};
