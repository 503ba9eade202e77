/**
 * The app's route table as the build has it (`build.routes`: ids, parents, paths, modules), made
 * from app/routes.ts and the route modules themselves, for tests that read route handles without a
 * production build.
 */
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import routes from "#app/routes.ts";
import type { RouteTable } from "#app/utils/catalogue-pages.ts";

const APP = path.resolve(import.meta.dirname, "../../app");

export async function appRouteTable(): Promise<RouteTable> {
  const table: RouteTable = {
    root: { id: "root", path: "", module: await import(path.join(APP, "root.tsx")) },
  };
  const add = async (entries: RouteConfigEntry[], parentId: string) => {
    for (const entry of entries) {
      const id = entry.id ?? entry.file.replace(/\.[^./]+$/, "");
      table[id] = {
        id,
        parentId,
        path: entry.path,
        index: entry.index,
        module: await import(path.join(APP, entry.file)),
      };
      if (entry.children) await add(entry.children, id);
    }
  };
  await add(await routes, "root");
  return table;
}
