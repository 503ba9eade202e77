/**
 * One rule for links: a shopper's page links with `StoreLink` / `StoreNavLink`
 * (app/components/store-link.tsx), the admin with React Router's `<Link>` / `<NavLink>`.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const APP = path.resolve(import.meta.dirname, "../../app");
const STOREFRONT = ["routes/_store", "components"];
const ROUTER_LINK = /import\s*\{[^}]*\b(Link|NavLink)\b[^}]*\}\s*from\s*"react-router"/;

function storefrontFiles(): string[] {
  return STOREFRONT.flatMap((folder) =>
    readdirSync(path.join(APP, folder), { recursive: true, encoding: "utf8" })
      .map((name) => path.join(folder, name).split(path.sep).join("/"))
      .filter((file) => /\.tsx?$/.test(file) && !file.startsWith("components/admin/")),
  );
}

function routerLinkImports(files: { file: string; text: string }[]) {
  return files.filter(({ text }) => ROUTER_LINK.test(text)).map(({ file }) => file);
}

describe("storefront links", () => {
  it("are StoreLinks: no shopper's page imports React Router's Link or NavLink", () => {
    const files = storefrontFiles();
    expect(files).toContain("routes/_store/home.tsx");
    const sources = files.map((file) => ({ file, text: readFileSync(path.join(APP, file), "utf8") }));
    expect(routerLinkImports(sources)).toEqual([]);
  });

  it("catches a planted import", () => {
    const planted = [
      { file: "routes/_store/x.tsx", text: 'import { data, Link } from "react-router";' },
      { file: "components/y.tsx", text: 'import {\n  NavLink,\n  useLocation,\n} from "react-router";' },
      { file: "components/z.tsx", text: 'import { StoreLink } from "./store-link.tsx";' },
    ];
    expect(routerLinkImports(planted)).toEqual(["routes/_store/x.tsx", "components/y.tsx"]);
  });
});
