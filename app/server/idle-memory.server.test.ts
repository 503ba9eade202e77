import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import vm from "node:vm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { releaseMemoryWhenIdle, v8Gc } from "./idle-memory.server.ts";

const MB = 1024 * 1024;

function setUp() {
  const clock = { now: 0 };
  const heap = { bytes: 50 * MB };
  const gc = vi.fn(async () => {
    heap.bytes = 40 * MB;
  });
  const idle = releaseMemoryWhenIdle({
    idleMs: 2_000,
    growthBytes: 16 * MB,
    gc,
    rssBytes: () => heap.bytes,
    now: () => clock.now,
  });
  if (!idle) throw new Error("no idle release with a gc function");
  return { clock, heap, gc, idle };
}

const response = () => new EventEmitter() as unknown as ServerResponse;

describe("releaseMemoryWhenIdle", () => {
  const stops: Array<() => void> = [];
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
    vi.useRealTimers();
  });

  it("finds V8's gc function without --expose-gc, and leaves other contexts without it", () => {
    expect(typeof v8Gc()).toBe("function");
    expect(vm.runInNewContext("typeof gc")).toBe("undefined");
  });

  it("gives the heap back once nothing has been served for a while and the heap has grown", async () => {
    const { clock, heap, gc, idle } = setUp();
    stops.push(idle.stop);
    const res = response();
    idle.onRequest(res);
    heap.bytes = 120 * MB;
    clock.now = 5_000;
    // A request in flight, however long: nothing.
    expect(await idle.check()).toBe(false);
    (res as unknown as EventEmitter).emit("finish");
    (res as unknown as EventEmitter).emit("close");
    clock.now = 6_000;
    expect(await idle.check()).toBe(false);
    clock.now = 7_000;
    expect(await idle.check()).toBe(true);
    expect(gc).toHaveBeenCalledExactlyOnceWith({ type: "major", execution: "async", flavor: "last-resort" });
    // Once: the heap has not grown since.
    clock.now = 60_000;
    expect(await idle.check()).toBe(false);
    expect(gc).toHaveBeenCalledTimes(1);
  });

  it("after a release, leaves memory that has barely grown alone", async () => {
    const { clock, heap, gc, idle } = setUp();
    stops.push(idle.stop);
    clock.now = 5_000;
    expect(await idle.check()).toBe(true);
    heap.bytes = 50 * MB;
    const res = response();
    idle.onRequest(res);
    (res as unknown as EventEmitter).emit("close");
    clock.now = 70_000;
    expect(await idle.check()).toBe(false);
    expect(gc).toHaveBeenCalledTimes(1);
  });

  it("releases once per quiet spell: memory that grows with nobody served is left to V8", async () => {
    const { clock, heap, gc, idle } = setUp();
    stops.push(idle.stop);
    clock.now = 5_000;
    expect(await idle.check()).toBe(true);
    // A backup at night: no request, and the process grows well past the threshold.
    heap.bytes = 200 * MB;
    clock.now = 60_000;
    expect(await idle.check()).toBe(false);
    expect(gc).toHaveBeenCalledTimes(1);
    // A visitor, then quiet again: the next spell releases.
    const res = response();
    idle.onRequest(res);
    (res as unknown as EventEmitter).emit("finish");
    heap.bytes = 200 * MB;
    clock.now = 62_000;
    expect(await idle.check()).toBe(true);
    expect(gc).toHaveBeenCalledTimes(2);
  });

  it("counts a request whose connection closed before its response finished as done", async () => {
    const { clock, heap, gc, idle } = setUp();
    stops.push(idle.stop);
    const res = response();
    idle.onRequest(res);
    heap.bytes = 120 * MB;
    (res as unknown as EventEmitter).emit("close");
    clock.now = 10_000;
    expect(await idle.check()).toBe(true);
    expect(gc).toHaveBeenCalledTimes(1);
  });

  it("checks by itself every half of the quiet time", async () => {
    vi.useFakeTimers();
    const { clock, heap, gc, idle } = setUp();
    stops.push(idle.stop);
    heap.bytes = 120 * MB;
    clock.now = 1_500;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(gc).not.toHaveBeenCalled();
    clock.now = 2_500;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(gc).toHaveBeenCalledTimes(1);
  });
});
