/**
 * Where the production build put the driver island's script (record 059): the file the client build
 * writes beside its bundle (`DRIVER_ISLAND_FILE`, see vite.config.ts), read once. Null in
 * `react-router dev` and when the file is missing: the run page then loads React Router's scripts
 * and hydrates as every other page does.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

export type IslandAssets = {
  /** The module script to run. */
  entry: string;
  /** The modules it imports, preloaded beside it. */
  preload: string[];
};

/** The file, relative to the client build's folder. */
export const DRIVER_ISLAND_FILE = ".vite/driver-island.json";

function readIslandAssets(): IslandAssets | null {
  if (import.meta.env.DEV) return null;
  try {
    const file = path.resolve(process.env.BUILD_DIR ?? "build", "client", DRIVER_ISLAND_FILE);
    return JSON.parse(readFileSync(file, "utf8")) as IslandAssets;
  } catch {
    return null;
  }
}

let assets: IslandAssets | null | undefined;

export function driverIslandAssets() {
  if (assets === undefined) assets = readIslandAssets();
  return assets;
}
