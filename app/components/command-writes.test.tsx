// The files a command wrote, as its tool card shows them (React's server renderer, no browser): a
// compact line naming the first paths, the whole list behind it with each change, a diff only where the
// metadata kept the texts, and "not known" where the call's writes were not held.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ToolResultMetadata } from "../../server/protocol/index.ts";
import { commandWrites } from "../../server/shared/command-writes.ts";
import { CommandWrites } from "./command-writes.tsx";

const held = { enabled: true, network: false, writesHeld: true };

const wrote: ToolResultMetadata = {
  command: "sed -i … package.json && …",
  sandbox: held,
  writes: [
    { path: "old.txt", change: "removed" },
    { path: "package.json", change: "changed", before: "{}\n", after: '{"scripts":{"pretest":"x"}}\n' },
    { path: "link", change: "added", noDiff: "a symbolic link" },
    { path: "gen/a.txt", change: "added", after: "a\n" },
  ],
};

describe("commandWrites", () => {
  it("names the first paths with their change, and counts them all", () => {
    const view = commandWrites(wrote);
    expect(view).toMatchObject({
      kind: "listed",
      summary: "Wrote 4 files: old.txt (removed), package.json (changed), link (added), …",
    });
    expect(view?.kind === "listed" && view.entries.map((entry) => entry.path)).toEqual([
      "old.txt",
      "package.json",
      "link",
      "gen/a.txt",
    ]);
  });

  it("says how many more the server did not list, and when that count stopped early", () => {
    const view = commandWrites({
      ...wrote,
      writes: [{ path: "package.json", change: "changed" }],
      writesOmitted: 19_999,
      writesOmittedAtLeast: true,
    });
    expect(view).toMatchObject({
      summary: "Wrote 20000+ files: package.json (changed), …",
      more: "and 19999+ more (not listed)",
    });
    expect(commandWrites({ ...wrote, writes: [{ path: "a", change: "added" }] })).toMatchObject({
      summary: "Wrote 1 file: a (added)",
    });
  });

  it("shows nothing for a call that wrote nothing, an old log, or a result that is not a command's", () => {
    expect(commandWrites({ ...wrote, writes: [] })).toBeUndefined();
    expect(commandWrites({ command: "ls", sandbox: held })).toBeUndefined();
    expect(commandWrites({ path: "a.txt" })).toBeUndefined();
    expect(commandWrites(undefined)).toBeUndefined();
  });

  it("ignores malformed entries a log may hold", () => {
    // As a log read back may hold it: metadata is unknown JSON until checked.
    const fromLog = JSON.parse(
      '{"writes":[{"path":"a","change":"renamed"},{"path":3,"change":"added"},"x",{"path":"b","change":"added"}]}',
    ) as ToolResultMetadata;
    const view = commandWrites(fromLog);
    expect(view).toMatchObject({ summary: "Wrote 1 file: b (added)" });
  });

  it("says the files are not known where the call's writes were not held, or it ran without a sandbox", () => {
    const notHeld = commandWrites({
      sandbox: {
        enabled: true,
        writesHeld: false,
        writesHeldReason: "turned off by PSEUDOCLAUDE_SANDBOX_HOLD_WRITES=off",
      },
    });
    expect(notHeld).toMatchObject({ kind: "unknown", line: "files written: not known (writes not held)" });
    expect(notHeld?.kind === "unknown" && notHeld.title).toContain(
      "turned off by PSEUDOCLAUDE_SANDBOX_HOLD_WRITES=off",
    );
    expect(commandWrites({ sandbox: { enabled: false, reason: "bwrap missing" } })).toMatchObject({
      kind: "unknown",
      line: "files written: not known (writes not held)",
    });
  });
});

describe("CommandWrites on the card", () => {
  it("lists every path; a path with kept texts opens to a diff, one without says why", () => {
    const html = renderToStaticMarkup(<CommandWrites metadata={wrote} />);
    expect(html).toContain('data-testid="tool-call-writes"');
    expect(html).toContain("Wrote 4 files: old.txt (removed), package.json (changed), link (added), …");
    expect(html.match(/data-testid="tool-call-write"/g)).toHaveLength(4);
    // package.json and gen/a.txt open to a diff (a <details>); the diff itself loads only when opened.
    expect(html.match(/<li data-testid="tool-call-write" data-change="\w+"><details>/g)).toHaveLength(2);
    expect(html).not.toContain("tool-call-write-diff");
    expect(html).toContain("no diff: a symbolic link");
  });

  it("renders the not-known line, and nothing when there is nothing to say", () => {
    const html = renderToStaticMarkup(
      <CommandWrites metadata={{ sandbox: { enabled: true, writesHeld: false } }} />,
    );
    expect(html).toContain('data-testid="tool-call-writes-unknown"');
    expect(html).toContain("files written: not known (writes not held)");
    expect(renderToStaticMarkup(<CommandWrites metadata={{ sandbox: held, writes: [] }} />)).toBe("");
  });
});
