/**
 * Seeds a fresh bench database before its server starts: `node scripts/bench/seed.ts <count>` with
 * DATA_DIR (PGlite) or DATABASE_URL (PostgreSQL) in the environment.
 */
import { openConfiguredDatabase } from "#app/db/client.server.ts";
import { seedDemoCatalogue } from "#app/features/catalog/seed.server.ts";

const count = Number(process.argv[2] ?? 60);
const handle = await openConfiguredDatabase("the bench seed script");
try {
  const result = await seedDemoCatalogue(handle.db, { count });
  process.stdout.write(`Seeded ${result.seeded} products (${result.images} images) in ${result.ms} ms\n`);
} finally {
  await handle.close();
}
