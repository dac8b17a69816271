// The inspector's kept selection: what a reload reads back, what is written, and what a kept request
// becomes while the session's replay arrives (state/request-selection.ts).
import { describe, expect, it } from "vitest";
import { parseSelection, restoreSelection, serializeSelection } from "./request-selection.ts";

const requests = [1, 2, 3].map((requestIndex) => ({ requestIndex }));

describe("the inspector's kept selection", () => {
  it("is kept per session: another session's entry, or an unreadable one, reads as none", () => {
    const entry = serializeSelection("s1", 2)!;
    expect(parseSelection(entry, "s1")).toBe(2);
    expect(parseSelection(entry, "s2")).toBeUndefined();
    expect(parseSelection("{not json", "s1")).toBeUndefined();
    expect(parseSelection(JSON.stringify({ sessionId: "s1", requestIndex: "2" }), "s1")).toBeUndefined();
    expect(parseSelection(null, "s1")).toBeUndefined();
  });

  it("following the newest request keeps nothing", () => {
    expect(serializeSelection("s1", undefined)).toBeUndefined();
  });

  it("shows the kept request once the replay brings it, and the newest when the session has none such", () => {
    expect(restoreSelection(2, requests, false)).toBe(2);
    expect(restoreSelection(2, requests, true)).toBe(2);
    // Still replaying: the request may come.
    expect(restoreSelection(7, requests.slice(0, 1), false)).toBe("wait");
    // Replayed in full without it: the newest, and the entry goes.
    expect(restoreSelection(7, requests, true)).toBe("newest");
  });
});
