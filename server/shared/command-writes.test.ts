import { describe, expect, it } from "vitest";
import { commandWrites, writesLines } from "./command-writes.ts";

describe("a command's writes as plain lines (cli run, the HTML export)", () => {
  it("the card's summary, a row per listed path with why it has no diff, then the count not listed", () => {
    const view = commandWrites({
      writes: [
        { path: "package.json", change: "changed", before: "a\n", after: "b\n" },
        { path: "link", change: "added", noDiff: "a symbolic link" },
      ],
      writesOmitted: 3,
      writesOmittedAtLeast: true,
    });
    expect(writesLines(view!)).toEqual({
      summary: "Wrote 5+ files: package.json (changed), link (added), …",
      rows: ["package.json (changed)", "link (added) · no diff: a symbolic link", "and 3+ more (not listed)"],
      rowsInSummary: false,
    });
  });

  it("rows that only repeat the summary's paths are marked so (cli run prints the summary alone)", () => {
    const view = commandWrites({
      writes: [
        { path: "README.md", change: "removed" },
        { path: "notes/out.txt", change: "added", before: "", after: "x\n" },
      ],
    });
    expect(writesLines(view!)).toEqual({
      summary: "Wrote 2 files: README.md (removed), notes/out.txt (added)",
      rows: ["README.md (removed)", "notes/out.txt (added)"],
      rowsInSummary: true,
    });
  });

  it("writes not held: the card's line and why, no rows", () => {
    const view = commandWrites({
      sandbox: { enabled: true, writesHeld: false, writesHeldReason: "no overlay" },
    });
    const lines = writesLines(view!);
    expect(lines.summary).toBe("files written: not known (writes not held)");
    expect(lines.rows).toEqual([]);
    expect(lines.why).toContain("its writes were not held (no overlay)");
  });
});
