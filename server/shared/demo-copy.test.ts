import { describe, expect, it } from "vitest";
import { isDemoCopy, newSessionWorkdir } from "./demo-copy.ts";

describe("the demo copy", () => {
  it("is recognised by its name", () => {
    expect(isDemoCopy("/tmp/pseudoclaude-demo-WY31P2")).toBe(true);
    expect(isDemoCopy("/tmp/pseudoclaude-demo-WY31P2/")).toBe(true);
    expect(isDemoCopy("/home/ana/pseudoclaude-demo-notes/src")).toBe(false);
    expect(isDemoCopy("/home/ana/project")).toBe(false);
  });

  it("of an earlier start is not offered for a new session: this start's copy is", () => {
    // The open session worked on the copy of a start that has stopped (its copy is gone).
    expect(newSessionWorkdir("/tmp/pseudoclaude-demo-WY31P2", "/tmp/pseudoclaude-demo-CIGJ6K")).toBe(
      "/tmp/pseudoclaude-demo-CIGJ6K",
    );
    // A folder of the user's own stays what it was, and so does this start's own copy.
    expect(newSessionWorkdir("/home/ana/project", "/tmp/pseudoclaude-demo-CIGJ6K")).toBe("/home/ana/project");
    expect(newSessionWorkdir("/tmp/pseudoclaude-demo-CIGJ6K", "/tmp/pseudoclaude-demo-CIGJ6K")).toBe(
      "/tmp/pseudoclaude-demo-CIGJ6K",
    );
    expect(newSessionWorkdir(undefined, "/home/ana/project")).toBe("/home/ana/project");
  });

  it("of another start is not offered when this start was given a folder of its own (--workdir)", () => {
    // `npm start` once, then `npm start -- --workdir ~/project`: the tab opens the newest session, the
    // demo copy's, which belongs to the other start (gone once it stops). New session… offers ~/project.
    expect(newSessionWorkdir("/tmp/pseudoclaude-demo-WY31P2", "/home/ana/project")).toBe("/home/ana/project");
    // Without a default of this start's, the open session's folder is all there is to offer.
    expect(newSessionWorkdir("/tmp/pseudoclaude-demo-WY31P2", undefined)).toBe(
      "/tmp/pseudoclaude-demo-WY31P2",
    );
  });
});
