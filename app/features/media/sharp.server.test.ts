import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { processIdPhoto } from "./id-photos.server.ts";
import sharp, { IMAGE_THREAD_NICE } from "./sharp.server.ts";

/** This process's threads by name, with their nice values (field 19 of /proc/…/stat). */
function threads() {
  return readdirSync("/proc/self/task").flatMap((id) => {
    try {
      const stat = readFileSync(`/proc/self/task/${id}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return [
        { name: readFileSync(`/proc/self/task/${id}/comm`, "utf8").trimEnd(), nice: Number(fields[16]) },
      ];
    } catch {
      return [];
    }
  });
}

describe.runIf(process.platform === "linux")("libvips' threads", () => {
  it("run at a lower priority than the event loop once an ID photo has been decoded", async () => {
    const photo = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: "#2f5d50" } })
      .jpeg()
      .toBuffer();
    await processIdPhoto(new Uint8Array(photo));
    const imageThreads = threads().filter((thread) => thread.name === "libvips worker");
    expect(imageThreads.length).toBeGreaterThan(0);
    expect(imageThreads.map((thread) => thread.nice)).toEqual(imageThreads.map(() => IMAGE_THREAD_NICE));
    // The thread that runs JavaScript keeps its priority.
    expect(threads().find((thread) => thread.name !== "libvips worker")?.nice).toBe(0);
  });
});
