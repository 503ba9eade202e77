/**
 * `npm run db:pglite-cluster`: makes the empty cluster a new embedded database starts from
 * (app/db/pglite-cluster/, record 040) with the installed PGlite and the server's settings. Run it
 * after upgrading PGlite or changing PGLITE_SETTINGS; the cluster's test says when it is due.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import {
  EMPTY_CLUSTER_FILE,
  EMPTY_CLUSTER_INFO,
  type EmptyClusterInfo,
  installedPgliteVersion,
  PGLITE_SETTINGS,
} from "../app/db/pglite-cluster.server.ts";

const client = await PGlite.create({
  initDbStartParams: PGLITE_SETTINGS.flatMap((setting) => ["--set", setting]),
  startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ["-c", setting])],
});
await client.exec("CHECKPOINT");
const archive = await client.dumpDataDir("gzip");
await client.close();
mkdirSync(path.dirname(EMPTY_CLUSTER_FILE), { recursive: true });
writeFileSync(EMPTY_CLUSTER_FILE, Buffer.from(await archive.arrayBuffer()));
const info: EmptyClusterInfo = { pglite: installedPgliteVersion(), settings: PGLITE_SETTINGS };
writeFileSync(EMPTY_CLUSTER_INFO, `${JSON.stringify(info, null, 2)}\n`);
console.log(
  `${path.relative(process.cwd(), EMPTY_CLUSTER_FILE)}: ${archive.size} bytes, PGlite ${info.pglite}`,
);
