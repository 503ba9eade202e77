/**
 * Product artwork drawn on this machine (no stock photos, no internet): one square SVG per product,
 * deterministic from its name, category and strain. A studio-style tile: a rich gradient backdrop,
 * a soft glow, a podium and a category illustration, with the strain's colour as an accent.
 * Rasterising (and WebP encoding) is the image pipeline's job (images.server.ts).
 */
import { hashString, pick, prng, type Random } from "#app/utils/seeded-random.ts";
import { accentFor, BACKDROPS, type Backdrop, CANDY_HUES } from "./artwork-palettes.ts";

export type ArtworkInput = {
  name: string;
  category: string;
  strain?: string | null;
};

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

function range(random: Random, min: number, max: number) {
  return min + random() * (max - min);
}

/** Two decimals are plenty for a 512-unit canvas and keep the SVG small. */
function n(value: number) {
  return Math.round(value * 100) / 100;
}

function hsl(hue: number, saturation: number, lightness: number) {
  return `hsl(${n(((hue % 360) + 360) % 360)} ${n(saturation)}% ${n(Math.min(100, Math.max(0, lightness)))}%)`;
}

// ---------------------------------------------------------------------------------------------
// Palettes: the data is in artwork-palettes.ts

type Accent = ReturnType<typeof accentFor>;

type Context = {
  random: Random;
  accent: Accent;
  backdrop: Backdrop;
  name: string;
  /** Unique prefix for ids, so several SVGs can be inlined on one page. */
  id: string;
};

// ---------------------------------------------------------------------------------------------
// Shared pieces

type Stop = [offset: number, color: string, opacity?: number];

function stopsText(stops: Stop[]) {
  return stops
    .map(
      ([offset, color, opacity]) =>
        `<stop offset="${offset}" stop-color="${color}"${opacity === undefined ? "" : ` stop-opacity="${opacity}"`}/>`,
    )
    .join("");
}

/** Where a linear gradient runs, from (x1, y1) to (x2, y2): fractions of the shape's box. */
type Axis = readonly [x1: number, y1: number, x2: number, y2: number];
const DOWN: Axis = [0, 0, 0, 1];
const ACROSS: Axis = [0, 0, 1, 0];
const DIAGONAL: Axis = [0, 0, 1, 1];

/** `user`: the axis is in the drawing's own units (`userSpaceOnUse`), not the shape's box. */
function linear(id: string, stops: Stop[], [x1, y1, x2, y2]: Axis = DOWN, user = false) {
  const units = user ? ` gradientUnits="userSpaceOnUse"` : "";
  return `<linearGradient id="${id}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}"${units}>${stopsText(stops)}</linearGradient>`;
}

function radial(id: string, stops: Stop[], cx = 0.5, cy = 0.5, r = 0.5, fx = cx, fy = cy) {
  return `<radialGradient id="${id}" cx="${cx}" cy="${cy}" r="${r}" fx="${fx}" fy="${fy}">${stopsText(stops)}</radialGradient>`;
}

function scene(context: Context) {
  const { backdrop, accent, random, id } = context;
  const defs = [
    linear(
      `${id}bg`,
      [
        [0, backdrop.top],
        [1, backdrop.bottom],
      ],
      [0.15, 0, 0.85, 1],
    ),
    radial(`${id}glow`, [
      [0, backdrop.glow, backdrop.dark ? 0.55 : 0.9],
      [0.55, backdrop.glow, backdrop.dark ? 0.12 : 0.35],
      [1, backdrop.glow, 0],
    ]),
    radial(`${id}accentGlow`, [
      [0, accent.main, backdrop.dark ? 0.35 : 0.28],
      [1, accent.main, 0],
    ]),
    linear(
      `${id}podium`,
      [
        [0, backdrop.podiumSide],
        [0.5, backdrop.podiumTop],
        [1, backdrop.podiumSide],
      ],
      ACROSS,
    ),
    radial(
      `${id}podiumTop`,
      [
        [0, backdrop.podiumTop],
        [1, backdrop.podiumSide],
      ],
      0.4,
      0.3,
      0.8,
    ),
    radial(`${id}shadow`, [
      [0, "#000", backdrop.dark ? 0.45 : 0.28],
      [1, "#000", 0],
    ]),
    linear(`${id}vignette`, [
      [0, "#000", 0],
      [0.7, "#000", 0],
      [1, "#000", backdrop.dark ? 0.3 : 0.1],
    ]),
  ];
  const ringRadius = range(random, 150, 185);
  const sparkles = Array.from({ length: 7 }, () => {
    const angle = range(random, 0, Math.PI * 2);
    const distance = range(random, 150, 230);
    const x = 256 + Math.cos(angle) * distance;
    const y = 220 + Math.sin(angle) * distance * 0.8;
    const size = range(random, 2.5, 6);
    return sparkle(x, y, size, accent.light, range(random, 0.35, 0.8));
  }).join("");
  const background = [
    `<rect width="512" height="512" fill="url(#${id}bg)"/>`,
    `<circle cx="${n(range(random, 120, 400))}" cy="${n(range(random, 60, 140))}" r="${n(range(random, 150, 220))}" fill="url(#${id}accentGlow)"/>`,
    `<circle cx="256" cy="236" r="230" fill="url(#${id}glow)"/>`,
    `<circle cx="256" cy="236" r="${n(ringRadius)}" fill="none" stroke="${accent.main}" stroke-opacity="${backdrop.dark ? 0.35 : 0.45}" stroke-width="1.5"/>`,
    `<circle cx="256" cy="236" r="${n(ringRadius + 14)}" fill="none" stroke="${accent.light}" stroke-opacity="0.18" stroke-width="1" stroke-dasharray="2 7"/>`,
    sparkles,
    // podium
    `<path d="M96 410 L96 470 A160 34 0 0 0 416 470 L416 410 Z" fill="url(#${id}podium)"/>`,
    `<ellipse cx="256" cy="410" rx="160" ry="34" fill="url(#${id}podiumTop)"/>`,
    `<ellipse cx="256" cy="410" rx="160" ry="34" fill="none" stroke="${accent.main}" stroke-opacity="0.55" stroke-width="2"/>`,
    `<ellipse cx="256" cy="404" rx="118" ry="18" fill="url(#${id}shadow)"/>`,
  ].join("");
  const foreground = `<rect width="512" height="512" fill="url(#${id}vignette)"/>`;
  return { defs, background, foreground };
}

function sparkle(x: number, y: number, size: number, color: string, opacity: number) {
  const s = size;
  const t = size * 0.22;
  return `<path d="M${n(x)} ${n(y - s)} Q${n(x + t)} ${n(y - t)} ${n(x + s)} ${n(y)} Q${n(x + t)} ${n(y + t)} ${n(x)} ${n(y + s)} Q${n(x - t)} ${n(y + t)} ${n(x - s)} ${n(y)} Q${n(x - t)} ${n(y - t)} ${n(x)} ${n(y - s)}Z" fill="${color}" fill-opacity="${n(opacity)}"/>`;
}

/** A serrated cannabis leaflet pointing up from (0,0), `length` long. */
function leafletPath(length: number, width: number, teeth: number) {
  const steps = teeth * 2;
  const right: string[] = [];
  const left: string[] = [];
  for (let step = 1; step < steps; step++) {
    const t = step / steps;
    const profile = Math.sin(Math.PI * t ** 0.75) * width;
    const w = step % 2 === 0 ? profile * 0.82 : profile;
    const y = -length * t + (step % 2 === 1 ? length * 0.012 : 0);
    right.push(`${n(w)} ${n(y)}`);
    left.unshift(`${n(-w)} ${n(y)}`);
  }
  return `M0 0 L${right.join(" L")} L0 ${n(-length)} L${left.join(" L")} Z`;
}

function fanLeaf(
  x: number,
  y: number,
  scale: number,
  rotation: number,
  fill: string,
  vein: string,
  stem = true,
) {
  const leaflets = [
    [0, 1, 0.15],
    [-28, 0.9, 0.14],
    [28, 0.9, 0.14],
    [-58, 0.72, 0.13],
    [58, 0.72, 0.13],
    [-88, 0.45, 0.12],
    [88, 0.45, 0.12],
  ] as const;
  const parts = leaflets
    .map(([angle, length, width]) => {
      const l = 150 * length;
      return `<g transform="rotate(${angle})"><path d="${leafletPath(l, l * width * 1.6, 9)}" fill="${fill}"/><path d="M0 0 L0 ${n(-l * 0.96)}" stroke="${vein}" stroke-width="1.6" stroke-linecap="round"/></g>`;
    })
    .join("");
  return `<g transform="translate(${n(x)} ${n(y)}) rotate(${n(rotation)}) scale(${n(scale)})">${stem ? `<path d="M0 0 L0 70" stroke="${vein}" stroke-width="5" stroke-linecap="round"/>` : ""}${parts}</g>`;
}

// ---------------------------------------------------------------------------------------------
// Flower: a frosty bud in front of a fan leaf

function flower(context: Context) {
  const { random, id, backdrop } = context;
  const purple = /purple|grape|punch|berry|plum|gdp/.test(context.name.toLowerCase());
  const hue = range(random, 84, 104);
  const frostiness = range(random, 0.55, 0.9);
  const defs = [
    radial(
      `${id}budBase`,
      [
        [0, hsl(hue, 38, 40)],
        [1, hsl(hue + 6, 45, 18)],
      ],
      0.42,
      0.4,
      0.65,
    ),
    radial(
      `${id}budShade`,
      [
        [0, "#000", 0],
        [0.6, "#000", 0],
        [1, "#000", 0.45],
      ],
      0.4,
      0.38,
      0.62,
    ),
    radial(
      `${id}budShine`,
      [
        [0, "#f4ffe6", 0.45],
        [1, "#f4ffe6", 0],
      ],
      0.5,
      0.5,
      0.5,
    ),
  ];
  const calyxFills = [0, 1, 2, 3].map((shade) => {
    const tint = purple && shade % 2 === 0 ? range(random, 270, 290) : hue + range(random, -6, 6);
    const saturation = purple && shade % 2 === 0 ? 26 : 40;
    const light = 30 + shade * 8;
    defs.push(
      linear(
        `${id}calyx${shade}`,
        [
          [0, hsl(tint, saturation - 10, light + 28)],
          [0.5, hsl(tint, saturation, light + 8)],
          [1, hsl(tint, saturation + 4, light - 8)],
        ],
        [0.3, 0, 0.7, 1],
      ),
    );
    return `url(#${id}calyx${shade})`;
  });
  const leafFill = backdrop.dark ? hsl(hue + 14, 42, 22) : hsl(hue + 14, 40, 30);
  const leafVein = backdrop.dark ? hsl(hue + 14, 32, 34) : hsl(hue + 14, 30, 44);
  const parts: string[] = [fanLeaf(256, 366, 1.42, range(random, -10, 10), leafFill, leafVein, false)];

  // the bud's outline: pointed top, widest two thirds down, rounded base
  const top = 112;
  const bottom = 372;
  const halfWidth = (t: number) =>
    86 * (t < 0.64 ? Math.sin((Math.PI / 2) * (t / 0.64)) ** 0.8 : 1 - ((t - 0.64) / 0.36) ** 2 * 0.55);
  const left: string[] = [];
  const right: string[] = [];
  for (let step = 0; step <= 24; step++) {
    const t = step / 24;
    const y = top + t * (bottom - top);
    const w = halfWidth(t);
    right.push(`${n(256 + w)} ${n(y)}`);
    left.unshift(`${n(256 - w)} ${n(y)}`);
  }
  const outline = `M${right.join(" L")} L${left.join(" L")} Z`;

  // sugar leaves reaching out of the bud
  const sugarLeaves: string[] = [];
  for (let index = 0; index < 9; index++) {
    const t = range(random, 0.15, 0.85);
    const side = index % 2 === 0 ? -1 : 1;
    const y = top + t * (bottom - top);
    const x = 256 + side * halfWidth(t) * 0.7;
    sugarLeaves.push(
      `<g transform="translate(${n(x)} ${n(y)}) rotate(${n(side * range(random, 30, 75))})"><path d="${leafletPath(range(random, 34, 56), range(random, 7, 10), 6)}" fill="${hsl(hue + 10, 40, range(random, 24, 32))}"/></g>`,
    );
  }
  parts.push(
    `<path d="M256 350 C254 370 258 386 253 398" stroke="${hsl(hue - 30, 30, 26)}" stroke-width="11" stroke-linecap="round" fill="none"/>`,
  );
  parts.push(sugarLeaves.join(""));
  parts.push(`<path d="${outline}" fill="url(#${id}budBase)"/>`);

  // calyxes: small pointed teardrops, packed densely, back rows first
  type Calyx = { x: number; y: number; w: number; h: number; rotation: number; depth: number };
  const calyxes: Calyx[] = [];
  for (let index = 0; index < 150; index++) {
    const t = random() ** 0.9;
    const u = range(random, -1, 1);
    const w = halfWidth(t);
    const y = top + 6 + t * (bottom - top - 14);
    const x = 256 + u * w * 0.88;
    const size = 0.7 + 0.5 * Math.min(1, w / 86);
    calyxes.push({
      x,
      y,
      w: range(random, 9, 13) * size,
      h: range(random, 15, 21) * size,
      rotation: u * 34 + range(random, -12, 12),
      depth: Math.abs(u),
    });
  }
  calyxes.sort((a, b) => b.depth - a.depth || a.y - b.y);
  for (const calyx of calyxes) {
    const lightFromLeft = (calyx.x - 256) / 86;
    const shade = Math.round(
      Math.min(3, Math.max(0, 2.4 - calyx.depth * 1.6 - lightFromLeft * 0.8 + range(random, -0.7, 0.7))),
    );
    const { w, h } = calyx;
    parts.push(
      `<path d="M0 ${n(-h)} C${n(w)} ${n(-h * 0.45)} ${n(w * 1.05)} ${n(h * 0.45)} 0 ${n(h * 0.55)} C${n(-w * 1.05)} ${n(h * 0.45)} ${n(-w)} ${n(-h * 0.45)} 0 ${n(-h)} Z" transform="translate(${n(calyx.x)} ${n(calyx.y)}) rotate(${n(calyx.rotation)})" fill="${calyxFills[shade]}"/>`,
    );
  }
  // shading over the whole bud for roundness, and a soft highlight
  parts.push(`<path d="${outline}" fill="url(#${id}budShade)"/>`);
  parts.push(`<ellipse cx="232" cy="220" rx="44" ry="80" fill="url(#${id}budShine)"/>`);

  // orange pistils
  const pistil = pick(random, ["#e8852f", "#f09a3e", "#d9692a", "#f2a65a", "#e37a3b"]);
  const hairs: string[] = [];
  for (let index = 0; index < 48; index++) {
    const calyx = pick(random, calyxes);
    const x = calyx.x;
    const y = calyx.y - calyx.h * 0.8;
    const dx = range(random, -16, 16) + (calyx.x - 256) * 0.12;
    const dy = range(random, -18, -6);
    hairs.push(
      `<path d="M${n(x)} ${n(y)} c${n(dx * 0.2)} ${n(dy * 0.6)} ${n(dx * 0.9)} ${n(dy * 0.5)} ${n(dx)} ${n(dy)}"/>`,
    );
  }
  parts.push(
    `<g stroke="${pistil}" stroke-width="1.8" stroke-linecap="round" fill="none" stroke-opacity="0.95">${hairs.join("")}</g>`,
  );
  // trichome frost
  const frost: string[] = [];
  for (let index = 0; index < Math.round(380 * frostiness); index++) {
    const calyx = pick(random, calyxes);
    frost.push(
      `<circle cx="${n(calyx.x + range(random, -calyx.w, calyx.w) * 0.9)}" cy="${n(calyx.y + range(random, -calyx.h, calyx.h * 0.5))}" r="${n(range(random, 0.6, 1.5))}"/>`,
    );
  }
  parts.push(`<g fill="#fbfff2" fill-opacity="0.8">${frost.join("")}</g>`);
  return { defs: defs.join(""), body: parts.join("") };
}

// ---------------------------------------------------------------------------------------------
// Edibles: gummy bears, a chocolate bar, a seltzer can or cookies

function candyHues(context: Context) {
  const name = context.name.toLowerCase();
  const match = CANDY_HUES.find(([pattern]) => pattern.test(name));
  if (match) return match[1];
  return [range(context.random, 0, 360), range(context.random, 0, 360), range(context.random, 0, 360)];
}

function gummyBear(
  context: Context,
  x: number,
  y: number,
  scale: number,
  rotation: number,
  hue: number,
  index: number,
) {
  const gradient = `${context.id}gummy${index}`;
  const defs = linear(
    gradient,
    [
      [0, hsl(hue, 90, 72)],
      [0.55, hsl(hue, 85, 55)],
      [1, hsl(hue, 80, 36)],
    ],
    [-40, -70, 40, 65],
    true,
  );
  const fill = `url(#${gradient})`;
  const shape = [
    `<circle cx="-22" cy="-62" r="12"/>`,
    `<circle cx="22" cy="-62" r="12"/>`,
    `<circle cx="0" cy="-38" r="31"/>`,
    `<ellipse cx="-35" cy="-2" rx="13" ry="18" transform="rotate(28 -35 -2)"/>`,
    `<ellipse cx="35" cy="-2" rx="13" ry="18" transform="rotate(-28 35 -2)"/>`,
    `<ellipse cx="0" cy="16" rx="37" ry="40"/>`,
    `<ellipse cx="-23" cy="50" rx="16" ry="15"/>`,
    `<ellipse cx="23" cy="50" rx="16" ry="15"/>`,
  ].join("");
  const body = `<g transform="translate(${n(x)} ${n(y)}) rotate(${n(rotation)}) scale(${n(scale)})">
<g fill="${fill}" fill-opacity="0.94">${shape}</g>
<ellipse cx="-10" cy="-50" rx="12" ry="7" fill="#fff" fill-opacity="0.45" transform="rotate(-25 -10 -50)"/>
<ellipse cx="-14" cy="4" rx="9" ry="16" fill="#fff" fill-opacity="0.3" transform="rotate(15 -14 4)"/>
<circle cx="-10" cy="-42" r="2.6" fill="${hsl(hue, 70, 28)}" fill-opacity="0.7"/>
<circle cx="10" cy="-42" r="2.6" fill="${hsl(hue, 70, 28)}" fill-opacity="0.7"/>
<ellipse cx="0" cy="-31" rx="5" ry="3.5" fill="${hsl(hue, 70, 30)}" fill-opacity="0.55"/>
</g>`;
  return { defs, body };
}

function gummies(context: Context) {
  const hues = candyHues(context);
  const bears = [
    gummyBear(context, 256, 256, 1.25, range(context.random, -6, 6), hues[0] ?? 0, 0),
    gummyBear(context, 176, 330, 0.95, range(context.random, -28, -14), hues[1] ?? 0, 1),
    gummyBear(context, 338, 332, 0.95, range(context.random, 14, 28), hues[2] ?? 0, 2),
  ];
  const sugar = Array.from({ length: 40 }, () => {
    const x = range(context.random, 130, 380);
    const y = range(context.random, 392, 420);
    return `<rect x="${n(x)}" y="${n(y)}" width="3" height="3" transform="rotate(${n(range(context.random, 0, 90))} ${n(x)} ${n(y)})" fill="#fff" fill-opacity="0.7"/>`;
  }).join("");
  return {
    defs: bears.map((bear) => bear.defs).join(""),
    body: bears.map((bear) => bear.body).join("") + sugar,
  };
}

function chocolate(context: Context, options: { mushroom?: boolean } = {}) {
  const { id, accent, random } = context;
  const milk = /milk|white|oat/.test(context.name.toLowerCase());
  const hue = milk ? 24 : 18;
  const defs = [
    linear(
      `${id}choc`,
      [
        [0, hsl(hue, milk ? 45 : 40, milk ? 42 : 30)],
        [1, hsl(hue, milk ? 50 : 45, milk ? 26 : 16)],
      ],
      DIAGONAL,
    ),
    linear(
      `${id}foil`,
      [
        [0, accent.light],
        [0.5, accent.main],
        [1, hsl(accent.hue, 40, 30)],
      ],
      DIAGONAL,
    ),
    linear(
      `${id}wrap`,
      [
        [0, "#fbf7ef"],
        [1, "#d9cfbf"],
      ],
      DIAGONAL,
    ),
  ].join("");
  const squares: string[] = [];
  for (let row = 0; row < 4; row++) {
    for (let column = 0; column < 3; column++) {
      const x = -84 + column * 58;
      const y = -128 + row * 58;
      squares.push(
        `<rect x="${x}" y="${y}" width="52" height="52" rx="5" fill="${hsl(hue, 42, milk ? 36 : 24)}"/>`,
        `<path d="M${x + 3} ${y + 49} L${x + 3} ${y + 5} Q${x + 3} ${y + 3} ${x + 5} ${y + 3} L${x + 49} ${y + 3}" stroke="${hsl(hue, 45, milk ? 58 : 44)}" stroke-width="2.5" fill="none" stroke-linecap="round"/>`,
      );
      if (options.mushroom) {
        squares.push(
          `<path d="M${x + 14} ${y + 30} Q${x + 26} ${y + 10} ${x + 38} ${y + 30} Z M${x + 22} ${y + 30} L${x + 22} ${y + 40} L${x + 30} ${y + 40} L${x + 30} ${y + 30}" fill="${hsl(hue, 40, milk ? 46 : 34)}"/>`,
        );
      }
    }
  }
  // torn wrapper over the lower part of the bar
  const torn: string[] = [];
  for (let step = 0; step <= 12; step++)
    torn.push(`${n(-96 + step * 16)} ${n(40 + (step % 2 === 0 ? 0 : 9) + range(random, -3, 3))}`);
  const body = `<g transform="translate(262 262) rotate(${n(range(random, -16, -8))})">
<rect x="-100" y="-140" width="200" height="270" rx="10" fill="url(#${id}choc)"/>
${squares.join("")}
<path d="M-104 ${torn[0]?.split(" ")[1] ?? 40} L${torn.join(" L")} L104 140 L-104 140 Z" fill="url(#${id}wrap)"/>
<path d="M-104 ${n(70)} L104 ${n(70)} L104 118 L-104 118 Z" fill="url(#${id}foil)"/>
<path d="M-104 ${n(94)} L104 ${n(94)}" stroke="#fff" stroke-opacity="0.5" stroke-width="1.5"/>
<rect x="-104" y="-144" width="208" height="288" rx="12" fill="none" stroke="#000" stroke-opacity="0.12" stroke-width="2"/>
</g>`;
  return { defs, body };
}

function can(context: Context) {
  const { id, accent, random } = context;
  const hue = candyHues(context)[0] ?? accent.hue;
  const defs = [
    linear(
      `${id}can`,
      [
        [0, hsl(hue, 55, 30)],
        [0.28, hsl(hue, 70, 62)],
        [0.4, hsl(hue, 80, 80)],
        [0.65, hsl(hue, 65, 52)],
        [1, hsl(hue, 60, 26)],
      ],
      ACROSS,
    ),
    linear(
      `${id}lid`,
      [
        [0, "#8d949b"],
        [0.4, "#eef1f4"],
        [1, "#7b828a"],
      ],
      ACROSS,
    ),
    linear(
      `${id}band`,
      [
        [0, "#f7f3ea"],
        [0.4, "#ffffff"],
        [1, "#cfc8ba"],
      ],
      ACROSS,
    ),
  ].join("");
  const drops = Array.from(
    { length: 22 },
    () =>
      `<ellipse cx="${n(range(random, 200, 312))}" cy="${n(range(random, 150, 380))}" rx="${n(range(random, 1.5, 3.2))}" ry="${n(range(random, 2, 4.5))}" fill="#fff" fill-opacity="${n(range(random, 0.35, 0.7))}"/>`,
  ).join("");
  const body = `<path d="M192 140 L192 382 A64 16 0 0 0 320 382 L320 140 Z" fill="url(#${id}can)"/>
<path d="M192 236 L320 236 L320 318 L192 318 Z" fill="url(#${id}band)"/>
${fanLeaf(256, 302, 0.36, 0, hsl(hue, 60, 40), hsl(hue, 50, 60))}
<path d="M192 236 L320 236 M192 318 L320 318" stroke="${accent.main}" stroke-width="3"/>
<ellipse cx="256" cy="140" rx="64" ry="16" fill="url(#${id}lid)"/>
<ellipse cx="256" cy="140" rx="52" ry="12" fill="#b8bec5"/>
<ellipse cx="264" cy="138" rx="16" ry="6" fill="#e4e7ea" stroke="#8d949b" stroke-width="1.5"/>
<path d="M192 140 L192 128 A64 16 0 0 1 320 128 L320 140" fill="none" stroke="#9aa1a8" stroke-width="3"/>
${drops}`;
  return { defs, body };
}

function cookies(context: Context) {
  const { id, random } = context;
  const defs = [
    radial(
      `${id}cookieTop`,
      [
        [0, "#e8b872"],
        [0.7, "#c98d45"],
        [1, "#9c6427"],
      ],
      0.45,
      0.4,
      0.6,
    ),
    linear(`${id}cookieSide`, [
      [0, "#a8692b"],
      [1, "#7a4618"],
    ]),
  ].join("");
  const parts: string[] = [];
  const stack = [
    { x: 256, y: 372, tilt: 0 },
    { x: 250, y: 336, tilt: range(random, -4, 4) },
    { x: 262, y: 300, tilt: range(random, -4, 4) },
  ];
  for (const cookie of stack) {
    parts.push(
      `<g transform="rotate(${n(cookie.tilt)} ${cookie.x} ${cookie.y})"><path d="M${cookie.x - 92} ${cookie.y} L${cookie.x - 92} ${cookie.y + 22} A92 30 0 0 0 ${cookie.x + 92} ${cookie.y + 22} L${cookie.x + 92} ${cookie.y} Z" fill="url(#${id}cookieSide)"/><ellipse cx="${cookie.x}" cy="${cookie.y}" rx="92" ry="30" fill="url(#${id}cookieTop)"/></g>`,
    );
  }
  // the top cookie's cinnamon sugar and cracks
  for (let index = 0; index < 40; index++) {
    const angle = range(random, 0, Math.PI * 2);
    const distance = Math.sqrt(random());
    parts.push(
      `<circle cx="${n(262 + Math.cos(angle) * distance * 80)}" cy="${n(300 + Math.sin(angle) * distance * 24)}" r="${n(range(random, 1, 2.4))}" fill="${pick(random, ["#6b3a12", "#fff4dc", "#8a4f1c"])}" fill-opacity="0.8"/>`,
    );
  }
  parts.push(
    `<path d="M222 296 q14 -6 24 2 M268 306 q12 -8 26 -2 M244 310 q6 4 14 2" stroke="#8a5620" stroke-width="2" fill="none" stroke-linecap="round"/>`,
  );
  // one cookie leaning against the stack
  parts.push(
    `<g transform="translate(352 300) rotate(-62)"><ellipse cx="0" cy="0" rx="78" ry="26" fill="url(#${id}cookieSide)"/><ellipse cx="0" cy="-8" rx="78" ry="24" fill="url(#${id}cookieTop)"/></g>`,
  );
  return { defs, body: parts.join("") };
}

function edibles(context: Context) {
  const name = context.name.toLowerCase();
  if (/chocolate|bar\b/.test(name)) return chocolate(context);
  if (/seltzer|soda|drink|tonic|can\b/.test(name)) return can(context);
  if (/cookie|bites|snickerdoodle|brownie|caramel|chews?\b/.test(name)) return cookies(context);
  return gummies(context);
}

// ---------------------------------------------------------------------------------------------
// Pre Rolls: paper cones with a filter tip

function cone(context: Context, kind: "paper" | "blunt" | "kief", index: number) {
  const { id, random } = context;
  const gradient = `${id}cone${index}`;
  const colors =
    kind === "blunt"
      ? ["#8a5a34", "#6b4225", "#3f2614"]
      : kind === "kief"
        ? ["#e9dba8", "#cdb678", "#8f7a45"]
        : ["#ffffff", "#f1ece2", "#c9c0b0"];
  const defs = linear(
    gradient,
    [
      [0, colors[0] as string],
      [0.45, colors[1] as string],
      [1, colors[2] as string],
    ],
    [0, -26, 0, 26],
    true,
  );
  const parts = [
    // cone body, wide end to the right
    `<path d="M-130 -11 L120 -25 Q132 -24 132 -12 L132 12 Q132 24 120 25 L-130 11 Z" fill="url(#${gradient})"/>`,
    // twisted tip
    `<path d="M128 -22 Q150 -14 162 -2 Q170 4 176 2 Q168 8 160 6 Q148 16 128 22 Z" fill="${colors[1]}"/>`,
    `<path d="M134 -16 Q148 -6 160 0 M134 14 Q148 6 162 4" stroke="${colors[2]}" stroke-width="1.4" fill="none"/>`,
    // flower peeking out at the wide end
    `<ellipse cx="131" cy="0" rx="5" ry="21" fill="${hsl(95, 35, 30)}"/>`,
  ];
  if (kind === "paper") {
    parts.push(`<path d="M-128 5 L126 12" stroke="#d8d0c2" stroke-width="1.2"/>`);
  }
  if (kind === "blunt") {
    for (let vein = 0; vein < 7; vein++) {
      const x = -110 + vein * 34;
      parts.push(
        `<path d="M${x} -10 q14 8 28 22" stroke="#a87448" stroke-opacity="0.6" stroke-width="1.4" fill="none"/>`,
      );
    }
  }
  if (kind === "kief") {
    for (let speck = 0; speck < 70; speck++) {
      const x = range(random, -95, 128);
      const half = 11 + ((x + 130) / 260) * 14;
      parts.push(
        `<circle cx="${n(x)}" cy="${n(range(random, -half, half) * 0.9)}" r="${n(range(random, 0.8, 2))}" fill="${pick(random, ["#fff8d8", "#b59a55", "#f3e3a3"])}"/>`,
      );
    }
  }
  if (kind !== "blunt") {
    // filter tip (crutch)
    parts.push(
      `<path d="M-130 -11 L-92 -13 L-92 13 L-130 11 Z" fill="#e7d3ae"/>`,
      `<path d="M-124 -10 L-124 10 M-116 -11 L-116 11 M-108 -12 L-108 12 M-100 -12 L-100 12" stroke="#c9ad7e" stroke-width="1.3"/>`,
      `<ellipse cx="-130" cy="0" rx="3.5" ry="11" fill="#cdb78f"/>`,
    );
  } else {
    parts.push(`<ellipse cx="-130" cy="0" rx="3.5" ry="11" fill="#3f2614"/>`);
  }
  return { defs, body: parts.join("") };
}

function preRolls(context: Context) {
  const { random, accent } = context;
  const name = context.name.toLowerCase();
  const kind = /blunt/.test(name) ? "blunt" : /infused|kief|diamond/.test(name) ? "kief" : "paper";
  const pack = /pack|mini|dogwalker|house/.test(name) || random() < 0.35;
  const defs: string[] = [];
  const body: string[] = [];
  const layouts = pack
    ? [
        { x: 246, y: 276, rotation: -58, scale: 0.92 },
        { x: 256, y: 308, rotation: -36, scale: 1 },
        { x: 270, y: 346, rotation: -14, scale: 0.92 },
      ]
    : [{ x: 256, y: 306, rotation: -30, scale: 1.2 }];
  layouts.forEach((layout, index) => {
    const piece = cone(context, kind, index);
    defs.push(piece.defs);
    body.push(
      `<g transform="translate(${layout.x} ${layout.y}) rotate(${layout.rotation}) scale(${layout.scale})"><ellipse cx="0" cy="30" rx="130" ry="8" fill="#000" fill-opacity="0.12"/>${piece.body}</g>`,
    );
  });
  // a faint wisp of smoke above the wide end
  const tip = pack ? { x: 360, y: 206 } : { x: 404, y: 196 };
  body.push(
    `<path d="M${tip.x} ${tip.y} c-18 -26 14 -44 -4 -72 s10 -40 -6 -64" stroke="${accent.light}" stroke-opacity="0.3" stroke-width="5" fill="none" stroke-linecap="round"/>`,
  );
  return { defs: defs.join(""), body: body.join("") };
}

// ---------------------------------------------------------------------------------------------
// Cartridges: a 510 cartridge or an all-in-one disposable

function oilGradient(context: Context, id: string) {
  const hue = range(context.random, 32, 44);
  return linear(
    id,
    [
      [0, hsl(hue + 6, 95, 72)],
      [0.5, hsl(hue, 92, 52)],
      [1, hsl(hue - 8, 90, 34)],
    ],
    ACROSS,
  );
}

function cartridge(context: Context) {
  const { id, accent, random } = context;
  const ceramic = random() < 0.4;
  const defs = [
    oilGradient(context, `${id}oil`),
    linear(
      `${id}metal`,
      [
        [0, "#6d737a"],
        [0.35, "#f2f4f6"],
        [0.6, "#a9afb6"],
        [1, "#50565c"],
      ],
      ACROSS,
    ),
    linear(
      `${id}glass`,
      [
        [0, "#ffffff", 0.35],
        [0.25, "#ffffff", 0.08],
        [0.75, "#ffffff", 0.04],
        [1, "#ffffff", 0.3],
      ],
      ACROSS,
    ),
    linear(
      `${id}tip`,
      ceramic
        ? [
            [0, "#cfc9bf"],
            [0.4, "#ffffff"],
            [1, "#bdb6aa"],
          ]
        : [
            [0, "#0d0d0d"],
            [0.4, "#4a4a4a"],
            [1, "#0a0a0a"],
          ],
      ACROSS,
    ),
  ].join("");
  const bubbles = Array.from(
    { length: 9 },
    () =>
      `<circle cx="${n(range(random, 226, 286))}" cy="${n(range(random, 200, 320))}" r="${n(range(random, 1.5, 4.5))}" fill="#fff" fill-opacity="0.55"/>`,
  ).join("");
  const body = `<g transform="rotate(${n(range(random, -10, 10))} 256 270)">
<path d="M232 104 Q232 96 240 96 L272 96 Q280 96 280 104 L286 160 L226 160 Z" fill="url(#${id}tip)"/>
<rect x="220" y="158" width="72" height="14" rx="3" fill="url(#${id}metal)"/>
<rect x="218" y="172" width="76" height="158" rx="8" fill="url(#${id}oil)"/>
<rect x="218" y="172" width="76" height="22" fill="#fff" fill-opacity="0.25"/>
<rect x="250" y="172" width="12" height="158" fill="url(#${id}metal)" fill-opacity="0.55"/>
${bubbles}
<rect x="218" y="172" width="76" height="158" rx="8" fill="url(#${id}glass)" stroke="#fff" stroke-opacity="0.55" stroke-width="2"/>
<path d="M228 180 L228 320" stroke="#fff" stroke-opacity="0.7" stroke-width="4" stroke-linecap="round"/>
<rect x="214" y="328" width="84" height="52" rx="6" fill="url(#${id}metal)"/>
<path d="M214 342 L298 342 M214 352 L298 352 M214 362 L298 362" stroke="#3f444a" stroke-opacity="0.35" stroke-width="2"/>
<rect x="214" y="330" width="84" height="6" fill="${accent.main}"/>
<rect x="230" y="380" width="52" height="22" rx="3" fill="url(#${id}metal)"/>
<path d="M230 386 L282 389 M230 392 L282 395 M230 398 L282 401" stroke="#3f444a" stroke-opacity="0.4" stroke-width="1.5"/>
</g>`;
  return { defs, body };
}

function disposable(context: Context) {
  const { id, accent, random } = context;
  const hue = range(context.random, 0, 360);
  const defs = [
    oilGradient(context, `${id}oil`),
    linear(
      `${id}pen`,
      [
        [0, hsl(hue, 30, 14)],
        [0.35, hsl(hue, 25, 38)],
        [0.55, hsl(hue, 25, 24)],
        [1, hsl(hue, 30, 10)],
      ],
      ACROSS,
    ),
    linear(
      `${id}band`,
      [
        [0, accent.main],
        [0.4, accent.light],
        [1, accent.main],
      ],
      ACROSS,
    ),
  ].join("");
  const body = `<g transform="rotate(${n(range(random, 8, 16))} 256 260)">
<path d="M238 98 Q238 86 250 86 L262 86 Q274 86 274 98 L280 130 L232 130 Z" fill="#1a1a1a"/>
<rect x="222" y="128" width="68" height="276" rx="22" fill="url(#${id}pen)"/>
<rect x="236" y="150" width="40" height="86" rx="12" fill="url(#${id}oil)"/>
<rect x="240" y="154" width="6" height="78" rx="3" fill="#fff" fill-opacity="0.5"/>
<rect x="222" y="262" width="68" height="16" fill="url(#${id}band)"/>
${fanLeaf(256, 330, 0.17, 0, accent.main, accent.light)}
<circle cx="256" cy="380" r="4" fill="${accent.light}"/>
<rect x="226" y="132" width="8" height="266" rx="4" fill="#fff" fill-opacity="0.12"/>
</g>`;
  return { defs, body };
}

function cartridges(context: Context) {
  return /disposable|all-in-one|aio/.test(context.name.toLowerCase())
    ? disposable(context)
    : cartridge(context);
}

// ---------------------------------------------------------------------------------------------
// Concentrates: a glass jar of badder, diamonds on sauce, or shatter on parchment

function concentrates(context: Context) {
  const { id, accent, random } = context;
  const name = context.name.toLowerCase();
  const hue = range(random, 36, 48);
  if (/shatter/.test(name)) {
    const defs = linear(
      `${id}shard`,
      [
        [0, hsl(hue + 4, 95, 70), 0.95],
        [0.5, hsl(hue, 95, 48), 0.9],
        [1, hsl(hue - 10, 90, 30), 0.95],
      ],
      DIAGONAL,
    );
    const shards = [
      "M150 300 L236 250 L280 296 L226 352 L160 344 Z",
      "M246 246 L338 226 L366 292 L292 300 Z",
      "M238 362 L300 306 L372 306 L352 372 L270 386 Z",
    ];
    const body = `<path d="M120 360 L250 250 L410 300 L290 408 Z" fill="#f8f3e8"/>
<path d="M120 360 L250 250 L410 300 L290 408 Z" fill="none" stroke="#d7cdbb" stroke-width="2"/>
${shards.map((d) => `<path d="${d}" fill="url(#${id}shard)" stroke="${hsl(hue + 8, 100, 80)}" stroke-opacity="0.8" stroke-width="2" stroke-linejoin="round"/>`).join("")}
<path d="M172 318 L222 292 M262 254 L318 242 M262 360 L316 330" stroke="#fff" stroke-opacity="0.75" stroke-width="4" stroke-linecap="round"/>`;
    return { defs, body };
  }
  const diamonds = /diamond|sauce/.test(name);
  const defs = [
    linear(
      `${id}glassJar`,
      [
        [0, "#ffffff", 0.4],
        [0.2, "#ffffff", 0.1],
        [0.8, "#ffffff", 0.05],
        [1, "#ffffff", 0.35],
      ],
      ACROSS,
    ),
    linear(
      `${id}wax`,
      [
        [0, hsl(hue + 6, 85, 76)],
        [0.5, hsl(hue, 85, 58)],
        [1, hsl(hue - 6, 80, 42)],
      ],
      ACROSS,
    ),
    linear(
      `${id}lidSide`,
      [
        [0, "#111"],
        [0.4, "#444"],
        [1, "#0a0a0a"],
      ],
      ACROSS,
    ),
    linear(
      `${id}tool`,
      [
        [0, "#f5f6f7"],
        [1, "#80868c"],
      ],
      DOWN,
    ),
  ].join("");
  const crystals = diamonds
    ? Array.from({ length: 7 }, (_, index) => {
        const x = 196 + index * 20 + range(random, -4, 4);
        const y = 300 + range(random, -14, 4);
        const s = range(random, 10, 18);
        return `<path d="M${n(x)} ${n(y - s)} L${n(x + s * 0.7)} ${n(y)} L${n(x)} ${n(y + s * 0.6)} L${n(x - s * 0.7)} ${n(y)} Z" fill="#fffbea" fill-opacity="0.85" stroke="${hsl(hue, 60, 70)}" stroke-width="1"/>`;
      }).join("")
    : Array.from(
        { length: 26 },
        () =>
          `<circle cx="${n(range(random, 186, 326))}" cy="${n(range(random, 300, 360))}" r="${n(range(random, 1.2, 3))}" fill="#fff6d0" fill-opacity="0.75"/>`,
      ).join("");
  const body = `
<path d="M176 262 L176 372 Q176 396 200 396 L312 396 Q336 396 336 372 L336 262 Z" fill="url(#${id}glassJar)" stroke="#fff" stroke-opacity="0.5" stroke-width="2"/>
<path d="M240 320 L158 150" stroke="url(#${id}tool)" stroke-width="8" stroke-linecap="round"/>
<circle cx="158" cy="150" r="6" fill="${accent.main}"/>
<path d="M182 300 Q210 286 236 298 Q262 310 290 294 Q314 284 330 298 L330 370 Q330 390 310 390 L202 390 Q182 390 182 370 Z" fill="url(#${id}wax)"/>
${crystals}
<ellipse cx="256" cy="262" rx="80" ry="16" fill="none" stroke="#fff" stroke-opacity="0.6" stroke-width="2"/>
<path d="M190 276 L190 370" stroke="#fff" stroke-opacity="0.6" stroke-width="5" stroke-linecap="round"/>
<g transform="translate(372 328) rotate(${n(range(random, -18, -8))})">
<path d="M-46 -40 L-46 6 A46 12 0 0 0 46 6 L46 -40 Z" fill="url(#${id}lidSide)"/>
<ellipse cx="0" cy="-40" rx="46" ry="12" fill="#2a2a2a"/>
<path d="M-46 -26 L46 -26" stroke="${accent.main}" stroke-width="4"/>
</g>
`;
  return { defs, body };
}

// ---------------------------------------------------------------------------------------------
// Mushrooms: caps and stems, or microdose capsules, or a chocolate bar

function mushroom(
  context: Context,
  x: number,
  base: number,
  height: number,
  capWidth: number,
  lean: number,
  index: number,
) {
  const { id, random } = context;
  const name = context.name.toLowerCase();
  const albino = /albino|avery|white|jack frost/.test(name);
  const blue = /blue/.test(name);
  const capHue = albino ? 40 : range(random, 24, 34);
  const capSat = albino ? 20 : 58;
  const defs = [
    radial(
      `${id}cap${index}`,
      [
        [0, hsl(capHue + 6, capSat + 10, albino ? 96 : 74)],
        [0.55, hsl(capHue, capSat, albino ? 86 : 50)],
        [1, hsl(capHue - 4, capSat - 6, albino ? 70 : 30)],
      ],
      0.45,
      0.3,
      0.75,
    ),
    linear(
      `${id}stem${index}`,
      [
        [0, "#d9cfbd"],
        [0.4, "#fbf6ec"],
        [1, "#c5b89f"],
      ],
      ACROSS,
    ),
  ].join("");
  const stemTop = capWidth * 0.16;
  const stemBottom = capWidth * 0.2;
  const capHeight = capWidth * 0.42;
  const spots = Array.from({ length: 6 }, () => {
    const sx = range(random, -0.6, 0.6) * capWidth * 0.5;
    const sy = -capHeight * range(random, 0.3, 0.8);
    return `<ellipse cx="${n(sx)}" cy="${n(sy)}" rx="${n(range(random, 3, 7))}" ry="${n(range(random, 2, 4))}" fill="#fff" fill-opacity="${albino ? 0.3 : 0.22}"/>`;
  }).join("");
  const bruise = blue
    ? `<path d="M${n(-capWidth * 0.45)} ${n(-capHeight * 0.2)} Q0 ${n(-capHeight * 0.05)} ${n(capWidth * 0.45)} ${n(-capHeight * 0.2)}" stroke="#5f86c9" stroke-opacity="0.6" stroke-width="6" fill="none"/>`
    : "";
  const body = `<g transform="translate(${n(x)} ${n(base)}) rotate(${n(lean)})">
<path d="M${n(-stemBottom)} 0 C${n(-stemBottom)} ${n(-height * 0.4)} ${n(-stemTop)} ${n(-height * 0.7)} ${n(-stemTop)} ${n(-height)} L${n(stemTop)} ${n(-height)} C${n(stemTop)} ${n(-height * 0.7)} ${n(stemBottom)} ${n(-height * 0.4)} ${n(stemBottom)} 0 Q0 ${n(8)} ${n(-stemBottom)} 0 Z" fill="url(#${id}stem${index})"/>
<g transform="translate(0 ${n(-height)})">
<ellipse cx="0" cy="2" rx="${n(capWidth * 0.46)}" ry="${n(capHeight * 0.22)}" fill="#8a7a62"/>
<path d="M${n(-capWidth / 2)} 0 C${n(-capWidth / 2)} ${n(-capHeight * 1.35)} ${n(capWidth / 2)} ${n(-capHeight * 1.35)} ${n(capWidth / 2)} 0 Q0 ${n(capHeight * 0.18)} ${n(-capWidth / 2)} 0 Z" fill="url(#${id}cap${index})"/>
${spots}${bruise}
</g>
</g>`;
  return { defs, body };
}

function capsules(context: Context) {
  const { id, accent, random } = context;
  const defs = [
    linear(`${id}capA`, [
      [0, accent.light],
      [0.5, accent.main],
      [1, hsl(accent.hue, 45, 30)],
    ]),
    linear(`${id}capB`, [
      [0, "#ffffff"],
      [0.5, "#f1ebdd"],
      [1, "#c4baa6"],
    ]),
  ].join("");
  const pills = [
    { x: 256, y: 250, r: -30, s: 1.3 },
    { x: 180, y: 340, r: 20, s: 1 },
    { x: 320, y: 350, r: -70, s: 1 },
    { x: 250, y: 372, r: 80, s: 0.9 },
    { x: 350, y: 270, r: 35, s: 0.9 },
  ]
    .map(
      (pill) =>
        `<g transform="translate(${pill.x} ${pill.y}) rotate(${pill.r + n(range(random, -6, 6))}) scale(${pill.s})"><path d="M0 -22 L-40 -22 A22 22 0 0 0 -40 22 L0 22 Z" fill="url(#${id}capA)"/><path d="M0 -22 L40 -22 A22 22 0 0 1 40 22 L0 22 Z" fill="url(#${id}capB)"/><rect x="-52" y="-14" width="84" height="6" rx="3" fill="#fff" fill-opacity="0.45"/></g>`,
    )
    .join("");
  return { defs, body: pills };
}

function mushrooms(context: Context) {
  const name = context.name.toLowerCase();
  if (/capsule|microdose/.test(name)) return capsules(context);
  if (/chocolate|bar\b/.test(name)) return chocolate(context, { mushroom: true });
  const { random } = context;
  const items = [
    mushroom(
      context,
      range(random, 290, 310),
      404,
      range(random, 180, 210),
      range(random, 160, 180),
      range(random, 4, 12),
      0,
    ),
    mushroom(
      context,
      range(random, 190, 204),
      406,
      range(random, 120, 150),
      range(random, 118, 138),
      range(random, -16, -8),
      1,
    ),
    mushroom(
      context,
      range(random, 364, 380),
      406,
      range(random, 76, 96),
      range(random, 74, 92),
      range(random, 10, 22),
      2,
    ),
  ];
  return {
    defs: items.map((item) => item.defs).join(""),
    body: `<g${random() < 0.5 ? ` transform="translate(512 0) scale(-1 1)"` : ""}>${items.map((item) => item.body).join("")}</g>`,
  };
}

// ---------------------------------------------------------------------------------------------

function illustration(context: Context, category: string) {
  switch (category) {
    case "Flower":
      return flower(context);
    case "Edibles":
      return edibles(context);
    case "Pre Rolls":
      return preRolls(context);
    case "Cartridges":
      return cartridges(context);
    case "Concentrates":
      return concentrates(context);
    case "Mushrooms":
      return mushrooms(context);
    default:
      return flower(context);
  }
}

/** The product's artwork as a square SVG document (`size` px, 512-unit view box). */
export function productArtworkSvg(input: ArtworkInput, options: { size?: number } = {}) {
  const size = options.size ?? 960;
  const seed = hashString(`${input.category}|${input.strain ?? ""}|${input.name}`);
  const random = prng(seed);
  const context: Context = {
    random,
    accent: accentFor(input.strain),
    backdrop: BACKDROPS[seed % BACKDROPS.length] as Backdrop,
    name: input.name,
    id: `a${seed.toString(36)}`,
  };
  const stage = scene(context);
  const art = illustration(context, input.category);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 512 512"><defs>${stage.defs}${art.defs}</defs>${stage.background}${art.body}${stage.foreground}</svg>`;
}
