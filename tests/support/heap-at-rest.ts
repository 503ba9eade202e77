/**
 * Child of tests/support/server-flags.test.ts, run with the server's Node flags: a burst of allocation as a load makes it (short-lived
 * objects, a few megabytes of them kept at a time), then a rest of `REST_MS` with the server's idle
 * release of V8's heap running (app/server/idle-memory.server.ts). Prints V8's committed heap at
 * the end of the burst and after the rest, in MB, as JSON.
 */
import v8 from "node:v8";
import { releaseMemoryWhenIdle } from "../../app/server/idle-memory.server.ts";

const REST_MS = Number(process.argv[2] ?? 3_000);
const mb = (bytes: number) => Math.round(bytes / 1_048_576);

const idle = releaseMemoryWhenIdle({ idleMs: 500 });
let kept: Array<Array<{ id: number; name: string; pair: number[] }>> = [];
for (let round = 0; round < 60; round++) {
  kept.push(Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `item ${i}`, pair: [i, round] })));
  if (kept.length > 8) kept.shift();
}
kept = kept.slice(-1);
const burstHeapMb = mb(v8.getHeapStatistics().total_heap_size);
await new Promise((resolve) => setTimeout(resolve, REST_MS));
idle?.stop();
process.stdout.write(
  `${JSON.stringify({ kept: kept.length, burstHeapMb, restHeapMb: mb(v8.getHeapStatistics().total_heap_size) })}\n`,
);
