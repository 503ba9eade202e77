import spriteUrl from "#app/assets/icons.svg?url";
import type { IconName } from "./icon-names.ts";

export type { IconName } from "./icon-names.ts";

/**
 * A decorative lucide icon drawn from the app's one SVG sprite (hashed, cached for good), instead of
 * its paths inlined in every page. Size and colour come from `className`; without a size class it is
 * 24 px, and stroke, fill and line caps are lucide's (see the `svg:has(> use)` rule in app.css).
 * Always hidden from assistive technology: the control around it carries the label.
 */
export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg aria-hidden="true" className={className}>
      <use href={`${spriteUrl}#${name}`} />
    </svg>
  );
}
