import { describe, expect, it } from "vitest";
import { createWorkQueue, QueueBusy } from "./work-queue.server.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("createWorkQueue", () => {
  it("runs at most `concurrency` jobs at once, the rest in order", async () => {
    const queue = createWorkQueue({ concurrency: 2, maxWaitMs: 5_000, maxWaiting: 10 });
    let active = 0;
    let peak = 0;
    const order: number[] = [];
    const job = (id: number) => async () => {
      active++;
      peak = Math.max(peak, active);
      await sleep(20);
      order.push(id);
      active--;
      return id;
    };
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map((id) => queue.run(job(id))));
    expect(results).toEqual([1, 2, 3, 4, 5, 6]);
    expect(peak).toBe(2);
    expect(order.slice(2)).toEqual([3, 4, 5, 6]);
    expect(queue.stats).toEqual({ running: 0, waiting: 0 });
  });

  it("refuses a job that waited too long, with a Retry-After in seconds, and keeps working", async () => {
    const queue = createWorkQueue({ concurrency: 1, maxWaitMs: 50, maxWaiting: 10 });
    const slow = queue.run(() => sleep(200));
    const refused = await queue.run(async () => "never").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(QueueBusy);
    expect((refused as QueueBusy).retryAfterSeconds).toBe(1);
    await slow;
    expect(await queue.run(async () => "after")).toBe("after");
    expect(queue.stats).toEqual({ running: 0, waiting: 0 });
  });

  it("refuses at once when the waiting line is full", async () => {
    const queue = createWorkQueue({ concurrency: 1, maxWaitMs: 5_000, maxWaiting: 1 });
    const first = queue.run(() => sleep(50));
    const second = queue.run(() => sleep(10));
    const started = Date.now();
    await expect(queue.run(async () => 1)).rejects.toBeInstanceOf(QueueBusy);
    expect(Date.now() - started).toBeLessThan(20);
    await Promise.all([first, second]);
  });

  it("frees the slot when a job fails", async () => {
    const queue = createWorkQueue({ concurrency: 1, maxWaitMs: 1_000, maxWaiting: 5 });
    await expect(queue.run(() => Promise.reject(new Error("broken")))).rejects.toThrow("broken");
    expect(await queue.run(async () => 2)).toBe(2);
  });
});
