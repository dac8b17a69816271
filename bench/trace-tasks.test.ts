import { describe, expect, it } from "vitest";
import { summarizeTasks, tasksAfterKeydown, type TraceEvent } from "./trace-tasks.ts";

const PAGE = { pid: 7, tid: 7 };
const task = (ts: number, dur: number, tdur: number, where = PAGE): TraceEvent => ({
  name: "RunTask",
  ph: "X",
  ...where,
  ts,
  dur,
  tdur,
});
const keydown: TraceEvent = {
  name: "EventDispatch",
  ph: "X",
  ...PAGE,
  ts: 10_000,
  dur: 500,
  args: { data: { type: "keydown" } },
};

describe("tasksAfterKeydown", () => {
  it("keeps the keydown thread's tasks from the keydown on, in ms after it, by thread time", () => {
    const events = [
      task(500, 9_000, 8_000), // page load: ended before the key
      task(9_800, 1_000, 900), // the keydown's own task, started just before it
      task(20_000, 130_000, 20_000), // stretched by the machine's load: long wall, little work
      task(200_000, 60_000, 55_000),
      { ...task(300_000, 70_000, 0), tdur: undefined }, // no thread time: its wall time, and said so
      { ...task(400_000, 3, 0), tdur: undefined }, // a few µs without thread time: too short to matter
      task(30_000, 99_000, 99_000, { pid: 7, tid: 8 }), // another thread of the renderer
      task(30_000, 99_000, 99_000, { pid: 1, tid: 1 }), // the browser process
      keydown,
    ];
    expect(tasksAfterKeydown(events)).toEqual([
      { startMs: -0.2, wallMs: 1, threadMs: 0.9, threadTimed: true },
      { startMs: 10, wallMs: 130, threadMs: 20, threadTimed: true },
      { startMs: 190, wallMs: 60, threadMs: 55, threadTimed: true },
      { startMs: 290, wallMs: 70, threadMs: 70, threadTimed: false },
      { startMs: 390, wallMs: 0.003, threadMs: 0.003, threadTimed: true },
    ]);
  });

  it("refuses a trace without a keydown instead of summarizing nothing", () => {
    expect(() => tasksAfterKeydown([task(0, 1_000, 1_000)])).toThrow(/no keydown/);
  });
});

describe("summarizeTasks", () => {
  it("names the task with the most thread time and counts those over the limit", () => {
    const summary = summarizeTasks(
      [
        { startMs: 10, wallMs: 130, threadMs: 20, threadTimed: true },
        { startMs: 190, wallMs: 60, threadMs: 55, threadTimed: true },
        { startMs: 300, wallMs: 52, threadMs: 51, threadTimed: true },
      ],
      50,
    );
    expect(summary).toEqual({
      tasks: 3,
      threadMs: 126,
      longest: { startMs: 190, wallMs: 60, threadMs: 55, threadTimed: true },
      overLimit: 2,
      threadTimed: true,
    });
    expect(
      summarizeTasks([{ startMs: 1, wallMs: 70, threadMs: 70, threadTimed: false }], 50).threadTimed,
    ).toBe(false);
  });

  it("has no longest task for an empty span", () => {
    expect(summarizeTasks([], 50)).toEqual({ tasks: 0, threadMs: 0, overLimit: 0, threadTimed: true });
  });
});
