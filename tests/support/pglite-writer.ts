/**
 * A child process for the crash tests: opens the embedded database in DATA_DIR the way the server
 * does, then inserts rows one by one, printing each id only after its commit was acknowledged.
 */
import { openDatabase } from "../../app/db/client.server.ts";
import { adminUsers } from "../../app/db/schema.ts";

const dataDir = process.argv[2] as string;
const handle = await openDatabase({ kind: "pglite", dataDir, lockOwner: "the crash-test writer" });
process.stdout.write("ready\n");
for (let index = 0; ; index++) {
  const [row] = await handle.db
    .insert(adminUsers)
    .values({ email: `writer-${process.pid}-${index}@crash.test`, passwordHash: "x" })
    .returning({ id: adminUsers.id });
  process.stdout.write(`committed ${row?.id}\n`);
}
