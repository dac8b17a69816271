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
    expect(sandboxCallLine(off)).toBe(
      "runs without a sandbox: bwrap not found on PATH (so it asks every time)",
    );
  });
});
