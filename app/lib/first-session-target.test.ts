// The first session a tab opens (firstSessionTarget, shared by the page's inline early script and its
// connection hook): the one the tab showed before a reload, else the newest whose folder still exists —
// a fresh tab must not land on a session that cannot run (its workdir removed, e.g. another start's demo
// copy) while one that can is listed.
import { describe, expect, it } from "vitest";
import { firstSessionTarget } from "./early-socket.ts";

const sessions = [
  { id: "gone-newest", updatedAt: "2026-12-03T21:00:00.000Z", workdirMissing: true as const },
  { id: "kept-older", updatedAt: "2026-12-03T20:00:00.000Z" },
  { id: "kept-oldest", updatedAt: "2026-12-03T19:00:00.000Z" },
];

describe("firstSessionTarget", () => {
  it("with nothing stored, prefers the newest session whose folder exists", () => {
    expect(firstSessionTarget(sessions, null)).toBe("kept-older");
  });

  it("keeps the session the tab showed, even when its folder is gone", () => {
    expect(firstSessionTarget(sessions, "gone-newest")).toBe("gone-newest");
  });

  it("opens the newest when every session's folder is gone, and nothing when there is none", () => {
    const allGone = sessions.map((item) => ({ ...item, workdirMissing: true as const }));
    expect(firstSessionTarget(allGone, null)).toBe("gone-newest");
    expect(firstSessionTarget([], null)).toBeUndefined();
  });

  it("stays self-contained: its source text runs on its own, as the inline script runs it", () => {
    const inline = new Function(`return (${firstSessionTarget.toString()})`)() as typeof firstSessionTarget;
    expect(inline(sessions, null)).toBe("kept-older");
  });
});
