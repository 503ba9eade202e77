/** `npm run icons`: writes app/assets/icons.svg, the sprite of every icon in ICON_NAMES. */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { ICON_NAMES } from "#app/components/ui/icon-names.ts";
import { buildIconSprite, SPRITE_PATH } from "./icon-sprite.ts";

writeFileSync(SPRITE_PATH, await buildIconSprite(ICON_NAMES));
process.stdout.write(`Wrote ${path.relative(process.cwd(), SPRITE_PATH)} (${ICON_NAMES.length} icons)\n`);
