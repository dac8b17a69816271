// whenIdle runs the page's deferred work in an idle callback where the browser has one, else on the next
// timer turn, and its cancel stops it in both. The page's `window` is a stand-in holding the browser's two
// scheduling APIs, here backed by Node's own timers (no browser in the unit tests).
import { afterEach, describe, expect, it } from "vitest";
import { whenIdle } from "./when-idle.ts";

const global = globalThis as Record<string, unknown>;
afterEach(() => {
  delete global.window;
});

/** A window whose idle callbacks run on the next timer turn, as an idle browser would run them. */
function pageWindow(withIdle: boolean) {
  const idle = withIdle
    ? {
        requestIdleCallback: (work: () => void, options: { timeout: number }) =>
          setTimeout(work, Math.min(options.timeout, 1)),
        cancelIdleCallback: (handle: ReturnType<typeof setTimeout>) => clearTimeout(handle),
      }
    : {};
  global.window = { ...idle, setTimeout, clearTimeout };
}

describe("whenIdle", () => {
  for (const withIdle of [true, false])
    it(`runs the work once, and a cancel stops it (${withIdle ? "requestIdleCallback" : "a timer"})`, async () => {
      pageWindow(withIdle);
      const ran: string[] = [];
      // Scheduled first, so had it not been canceled it would run before the second one does.
      const cancel = whenIdle(() => ran.push("canceled"));
      whenIdle(() => ran.push("kept"));
      cancel();
      await expect.poll(() => ran).toEqual(["kept"]);
    });
});
