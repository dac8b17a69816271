// How the pages put the OS sandbox into words: the header badge (for the session) and the line on an
// approval or tool card (for one exec call). Pure, so the wording is unit-tested.
import type { SandboxState } from "../../server/protocol/index.ts";

export interface SandboxBadge {
  tone: "green" | "red";
  label: string;
  title: string;
}

const onTitle =
  "Commands and skill tools run under bubblewrap: the filesystem is read-only except the workdir " +
  "(what programs on your machine read from it as configuration — .PseudoClaude/, .mcp.json, every git " +
  "repository's config, hooks and HEAD — stays read-only), /tmp is private, secrets folders are hidden, " +
  "and the process tree dies with the call. Network is off unless this session allows it.";

/** Whether a command's writes wait in an overlay until it has ended and passed the check (held-writes.ts). */
function heldWritesSentence(state: SandboxState): string {
  if (state.writesHeld === true)
    return "Each command's writes are held until it has ended and its result is checked: nothing it writes reaches the workdir before.";
  if (state.writesHeld === false)
    return `Writes are not held (${state.writesHeldReason ?? "unavailable"}): each command writes the workdir directly and is checked after it ends.`;
  return "";
}
const offTitle =
  "Commands and skill tools run directly on this machine, without bubblewrap, so every command and skill " +
  "tool asks for your approval, whatever the permission mode or rules say.";

function networkWord(on: boolean): string {
  return on ? "on" : "off";
}

/**
 * The session's sandbox as the header shows it. `session` is what the server reported for the session (or
 * its current run); `machine` is the hello's probe; `allowNetwork` the session setting, which takes effect
 * from the next run. Undefined when the server reported nothing (an older server).
 */
export function sandboxBadge(
  session: SandboxState | undefined,
  machine: { available: boolean; reason?: string } | undefined,
  allowNetwork: boolean | undefined,
): SandboxBadge | undefined {
  const state: SandboxState | undefined =
    session ??
    (machine
      ? {
          enabled: machine.available,
          mechanism: machine.available ? "bubblewrap" : "none",
          network: allowNetwork ?? false,
          reason: machine.reason,
        }
      : undefined);
  if (!state) return undefined;
  if (!state.enabled)
    return {
      tone: "red",
      label: `sandbox off: ${state.reason ?? "bubblewrap is not available"}`,
      title: offTitle,
    };
  const pending = allowNetwork !== undefined && allowNetwork !== state.network;
  return {
    tone: "green",
    label: `sandbox on · network ${networkWord(state.network)}${pending ? ` · next run: network ${networkWord(allowNetwork)}` : ""}`,
    title: [onTitle, heldWritesSentence(state)].filter(Boolean).join(" "),
  };
}

/**
 * One exec call's sandbox, e.g. "runs in the sandbox: workdir writable, network off". `tool` is the call's
 * tool: an MCP server's tool (`mcp__<server>__<tool>`) runs in that server's process, not in a sandbox made
 * for the call — its writes reach the workdir directly (not held) and each call is checked after it, and
 * its sandbox and network are the server's own (the MCP panel shows them).
 */
export function sandboxCallLine(state: SandboxState, tool?: string): string {
  if (tool?.startsWith("mcp__") && state.enabled)
    return "calls an MCP server: it writes the workdir directly (not held), each call is checked after it; its sandbox and network are the server's (MCP panel)";
  if (!state.enabled)
    return `runs without a sandbox: ${state.reason ?? "bubblewrap is not available"} (so it asks every time)`;
  const writes =
    state.writesHeld === true
      ? "workdir writable (writes held until checked)"
      : state.writesHeld === false
        ? "workdir writable (writes not held: checked after the call)"
        : "workdir writable";
  return `runs in the sandbox: ${writes}, network ${networkWord(state.network)}`;
}
