/** Builds the app's SVG sprite (one <symbol> per icon) from lucide's own icon data. */
import path from "node:path";

export const SPRITE_PATH = path.resolve(import.meta.dirname, "../app/assets/icons.svg");

type IconNode = Array<[tag: string, attributes: Record<string, string | number>]>;

function escapeAttribute(value: string | number) {
  return String(value).replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
}

async function lucideIconNode(name: string): Promise<IconNode> {
  const icon = (await import(`lucide-react/icons/${name}`)) as { __iconData?: { node: IconNode } };
  if (!icon.__iconData) throw new Error(`lucide-react has no icon data for "${name}"`);
  return icon.__iconData.node;
}

/**
 * The sprite's text. Stroke, fill and size are not set on the symbols but on the icon's <svg> (app.css),
 * so a class such as `fill-current` there still reaches the paths.
 */
export async function buildIconSprite(names: readonly string[]) {
  const symbols: string[] = [];
  for (const name of [...names].sort()) {
    const children = (await lucideIconNode(name)).map(([tag, attributes]) => {
      const text = Object.entries(attributes)
        .filter(([attribute]) => attribute !== "key")
        .map(([attribute, value]) => ` ${attribute}="${escapeAttribute(value)}"`)
        .join("");
      return `<${tag}${text}/>`;
    });
    symbols.push(`<symbol id="${name}" viewBox="0 0 24 24">${children.join("")}</symbol>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg">\n${symbols.join("\n")}\n</svg>\n`;
}
