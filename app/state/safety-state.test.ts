// The reducer's sandbox, folder-trust and confirmation cases, and the trust-prompt rule.
import { describe, expect, it } from "vitest";
import type { FolderTrust, ServerMessage } from "../../server/protocol/index.ts";
import { folderGrantsSomething, trustPromptOpen } from "./derive.ts";
import { initialUiState, uiReducer } from "./reducer.ts";
import { envelope, summary } from "./test-builders.ts";
import type { UiState } from "./types.ts";

function run(messages: ServerMessage[], start: UiState = initialUiState): UiState {
  return uiReducer(start, { type: "server_batch", messages });
}

const opened = envelope(1, { type: "session_opened", session: summary(), history: [], activeSkills: [] });

const untrusted: FolderTrust = {
  folder: "/tmp/demo",
  trusted: false,
  grants: {
    settingsFile: "/tmp/demo/.PseudoClaude/settings.json",
    allow: ["run_command(*)"],
    mcpServers: ["files"],
    defaultMode: "acceptEdits",
  },
};

describe("sandbox state", () => {
  it("keeps the machine's probe from hello", () => {
    const state = run([
      {
        type: "hello",
        serverVersion: "0.2.0",
        providers: [],
        defaultWorkdir: "/tmp/demo",
        sandbox: { available: false, reason: "bwrap not found on PATH" },
      },
    ]);
    expect(state.machineSandbox).toEqual({ available: false, reason: "bwrap not found on PATH" });
  });

  it("records the sandbox each run starts with, and keeps it when a run_started carries none", () => {
    const sandbox = { enabled: true, mechanism: "bubblewrap" as const, network: true };
    const state = run([
      opened,
      envelope(2, { type: "run_started", runId: "r1", userMessage: "go", sandbox }),
    ]);
    expect(state.session!.runSandbox).toEqual(sandbox);
    const older = run([envelope(3, { type: "run_started", runId: "r2", userMessage: "again" })], state);
    expect(older.session!.runSandbox).toEqual(sandbox);
  });

  it("takes the newest sandbox from an exec call's permission trace", () => {
    const off = { enabled: true, mechanism: "bubblewrap" as const, network: false };
    const on = { ...off, network: true };
    const state = run([
      opened,
      envelope(2, { type: "run_started", runId: "r1", userMessage: "go", sandbox: off }),
      envelope(3, {
        type: "permission_request",
        runId: "r1",
        request: {
          callId: "c1",
          tool: "run_command",
          category: "exec",
          input: { command: "curl x" },
          command: "curl x",
          cwd: "/tmp/demo",
          trace: { decision: "ask", source: "mode", category: "exec", sandbox: on },
        },
      }),
    ]);
    expect(state.session!.runSandbox).toEqual(on);
  });

  it("does not take the sandbox of a replayed run (the snapshot's summary is newer)", () => {
    const now = {
      enabled: false,
      mechanism: "none" as const,
      network: false,
      reason: "bwrap not found on PATH",
    };
    const then = { enabled: true, mechanism: "bubblewrap" as const, network: false };
    const state = run([
      envelope(5, {
        type: "session_opened",
        session: { ...summary(), sandbox: now },
        history: [],
        activeSkills: [],
      }),
      envelope(2, { type: "run_started", runId: "r1", userMessage: "old run", sandbox: then }),
    ]);
    expect(state.session!.runSandbox).toBeUndefined();
    expect(state.session!.summary.sandbox).toEqual(now);
  });
});

describe("folder trust", () => {
  it("opens the prompt for an untrusted folder that grants something, until Keep untrusted", () => {
    const state = run([opened, envelope(2, { type: "trust_state", trust: untrusted })]);
    expect(state.session!.summary.trust).toEqual(untrusted);
    expect(trustPromptOpen(state.session)).toBe(true);
    const kept = uiReducer(state, { type: "trust_prompt", dismissed: true });
    expect(trustPromptOpen(kept.session)).toBe(false);
    // The same trust sent again (a reconnect) does not ask again; new grants do.
    const again = run([envelope(3, { type: "trust_state", trust: untrusted })], kept);
    expect(trustPromptOpen(again.session)).toBe(false);
    const more = {
      ...untrusted,
      grants: { ...untrusted.grants, allow: ["run_command(*)", "write_file(*)"] },
    };
    const changed = run([envelope(4, { type: "trust_state", trust: more })], again);
    expect(trustPromptOpen(changed.session)).toBe(true);
    const reopened = uiReducer(kept, { type: "trust_prompt", dismissed: false });
    expect(trustPromptOpen(reopened.session)).toBe(true);
  });

  it("does not prompt for a trusted folder or one that grants nothing", () => {
    const trusted = run([
      opened,
      envelope(2, { type: "trust_state", trust: { ...untrusted, trusted: true, via: "session" } }),
    ]);
    expect(trustPromptOpen(trusted.session)).toBe(false);
    const empty = { folder: "/tmp/demo", trusted: false, grants: { allow: [], mcpServers: [] } };
    expect(folderGrantsSomething(empty)).toBe(false);
    expect(
      folderGrantsSomething({ ...empty, grants: { ...empty.grants, defaultMode: "bypassPermissions" } }),
    ).toBe(true);
    expect(folderGrantsSomething({ ...empty, grants: { allow: [], mcpServers: ["x"] } })).toBe(true);
    expect(trustPromptOpen(run([opened, envelope(2, { type: "trust_state", trust: empty })]).session)).toBe(
      false,
    );
    expect(trustPromptOpen(undefined)).toBe(false);
  });
});

describe("confirmations", () => {
  it("turns confirmation_required into a pending confirmation, not an error card", () => {
    const state = run([
      {
        type: "error",
        code: "confirmation_required",
        command: "create_session",
        message: "The working directory / contains your home folder.",
        confirm: ["broad_workdir"],
      },
    ]);
    expect(state.errors).toEqual([]);
    expect(state.confirmation).toEqual({
      command: "create_session",
      sessionId: undefined,
      message: "The working directory / contains your home folder.",
      confirm: ["broad_workdir"],
    });
    expect(uiReducer(state, { type: "confirmation_done" }).confirmation).toBeUndefined();
  });

  it("keeps other errors, and a confirmation_required without a list, as error cards", () => {
    const state = run([
      { type: "error", code: "confirmation_required", command: "update_session", message: "confirm what?" },
      { type: "error", code: "bad_request", command: "create_session", message: "no such provider" },
    ]);
    expect(state.confirmation).toBeUndefined();
    expect(state.errors.map((error) => error.code)).toEqual(["confirmation_required", "bad_request"]);
  });
});
