/**
 * sharp, set up once for this process (record 015). libvips keeps a cache of recent operations
 * and their pixels (50 MB by default) and runs each image on as many threads as there are cores:
 * the shop never processes the same image twice, and its image work is queued per request, so the
 * cache is off (memory goes back after a burst) and each image gets one thread (two queued photos
 * leave the other cores to the web server).
 */
import { readdirSync, readFileSync } from "node:fs";
import { setPriority } from "node:os";
import sharp from "sharp";

sharp.cache(false);
sharp.concurrency(1);

export default sharp;

/**
 * The nice value of libvips' threads. Decoding a photo can wait a moment; the event loop, which
 * answers every other request, cannot: in a burst of uploads it spent longer waiting for a core
 * than running. At 10 a decoding thread gets about a tenth of the share of a thread at 0.
 */
export const IMAGE_THREAD_NICE = 10;
const IMAGE_THREAD_NAME = "libvips worker";
let loweredThreads = new Set<number>();

/**
 * Lowers the priority of libvips' worker threads not lowered yet (Linux: a thread's nice value is
 * its own). libvips starts them on first use and keeps them in a pool, so this runs after each
 * image's work; a new thread runs its first image at the normal priority.
 */
export function lowerImageThreadPriority() {
  if (process.platform !== "linux") return;
  let threadIds: number[];
  try {
    threadIds = readdirSync("/proc/self/task").map(Number);
  } catch {
    return;
  }
  const stillRunning = new Set<number>();
  for (const threadId of threadIds) {
    if (loweredThreads.has(threadId)) {
      stillRunning.add(threadId);
      continue;
    }
    try {
      if (readFileSync(`/proc/self/task/${threadId}/comm`, "utf8").trimEnd() !== IMAGE_THREAD_NAME) continue;
      setPriority(threadId, IMAGE_THREAD_NICE);
      stillRunning.add(threadId);
    } catch {
      // The thread ended meanwhile.
    }
  }
  loweredThreads = stillRunning;
}
