import { describe, expect, it } from "vitest";
import { sandboxBadge, sandboxCallLine } from "./sandbox-text.ts";

const on = { enabled: true, mechanism: "bubblewrap" as const, network: false };
const off = { enabled: false, mechanism: "none" as const, network: false, reason: "bwrap not found on PATH" };

describe("sandbox wording", () => {
  it("says on, with the network state, or off with the reason", () => {
    expect(sandboxBadge(on, undefined, undefined)).toMatchObject({
      tone: "green",
      label: "sandbox on · network off",
    });
    expect(sandboxBadge({ ...on, network: true }, undefined, true)?.label).toBe("sandbox on · network on");
    const red = sandboxBadge(off, { available: true }, false);
    expect(red).toMatchObject({ tone: "red", label: "sandbox off: bwrap not found on PATH" });
    expect(red?.title).toContain("every command");
  });

  it("names a network change that waits for the next run", () => {
    expect(sandboxBadge(on, undefined, true)?.label).toBe("sandbox on · network off · next run: network on");
    expect(sandboxBadge({ ...on, network: true }, undefined, false)?.label).toBe(
      "sandbox on · network on · next run: network off",
    );
  });

  it("falls back to the machine's probe, and to nothing when the server reported nothing", () => {
    expect(
      sandboxBadge(undefined, { available: false, reason: "user namespaces refused" }, false),
    ).toMatchObject({ tone: "red", label: "sandbox off: user namespaces refused" });
    expect(sandboxBadge(undefined, { available: true }, true)?.label).toBe("sandbox on · network on");
    expect(sandboxBadge(undefined, { available: false }, undefined)?.label).toBe(
      "sandbox off: bubblewrap is not available",
    );
    expect(sandboxBadge(undefined, undefined, true)).toBeUndefined();
  });

  it("describes one call's sandbox", () => {
    expect(sandboxCallLine(on)).toBe("runs in the sandbox: workdir writable, network off");
    expect(sandboxCallLine({ ...on, network: true })).toBe(
      "runs in the sandbox: workdir writable, network on",
    );
    expect(sandboxCallLine({ ...on, writesHeld: true })).toBe(
      "runs in the sandbox: workdir writable (writes held until checked), network off",
    );
    expect(sandboxCallLine({ ...on, writesHeld: false, writesHeldReason: "no unshare" })).toBe(
      "runs in the sandbox: workdir writable (writes not held: checked after the call), network off",
    );
    expect(sandboxCallLine(off)).toBe(
      "runs without a sandbox: bwrap not found on PATH (so it asks every time)",
    );
  });

  it("says in the badge's title whether a command's writes are held until checked, and why not", () => {
    expect(sandboxBadge({ ...on, writesHeld: true }, undefined, false)?.title).toContain(
      "writes are held until it has ended",
    );
    const notHeld = sandboxBadge(
      { ...on, writesHeld: false, writesHeldReason: "unshare refused" },
      undefined,
      false,
    );
    expect(notHeld?.title).toContain("Writes are not held (unshare refused)");
    expect(sandboxBadge(on, undefined, false)?.title).not.toContain("held");
  });

  it("says an MCP server's call is not held and is checked after it (the server writes directly)", () => {
    const line = sandboxCallLine({ ...on, writesHeld: true }, "mcp__tickets__find_ticket");
    expect(line).toContain("MCP server");
    expect(line).toContain("not held");
    expect(line).not.toContain("writes held until checked");
    expect(sandboxCallLine(off, "mcp__tickets__find_ticket")).toContain("runs without a sandbox");
    expect(sandboxCallLine({ ...on, writesHeld: true }, "run_command")).toContain(
      "writes held until checked",
    );
  });
});
