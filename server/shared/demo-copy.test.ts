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
    expect(newSessionWorkdir("/tmp/pseudoclaude-demo-WY31P2", "/home/ana/project")).toBe(
      "/tmp/pseudoclaude-demo-WY31P2",
    );
    expect(newSessionWorkdir(undefined, "/home/ana/project")).toBe("/home/ana/project");
  });
});
