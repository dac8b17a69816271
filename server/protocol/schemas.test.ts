// The command schemas are the one definition of the client commands (their types are derived from them).
// Every command has a schema that takes a well-formed frame and names what is wrong with a bad one.
import { describe, expect, it } from "vitest";
import { commandSchemas, parseClientCommand, type ClientCommand, type SessionSettings } from "./schemas.ts";

const settings: SessionSettings = {
  workdir: "/w",
  provider: "scripted",
  model: "m",
  permissionMode: "acceptEdits",
  disclosure: "eager",
  scenario: "x.yaml",
  refreshToolsEachIteration: true,
  allowNetwork: true,
  catalogBudget: { profile: "codex", contextWindow: 200_000 },
  replayOf: "20260101-000000-abcdef12",
};
const { workdir: _workdir, ...updatable } = settings;

// One well-formed command of each type: a type added to the schemas without a sample fails to compile.
const samples: { [K in ClientCommand["type"]]: Extract<ClientCommand, { type: K }> } = {
  list_providers: { type: "list_providers" },
  list_sessions: { type: "list_sessions" },
  create_session: { type: "create_session", settings, confirm: ["broad_workdir", "bypass_permissions"] },
  open_session: { type: "open_session", sessionId: "s1", lastSeq: 3 },
  delete_session: { type: "delete_session", sessionId: "s1" },
  export_session: { type: "export_session", sessionId: "s1", format: "html" },
  import_scenario: { type: "import_scenario", sessionId: "s1", fileName: "r.yaml", yaml: "name: r" },
  update_session: {
    type: "update_session",
    sessionId: "s1",
    settings: updatable,
    confirm: ["bypass_permissions"],
  },
  trust_folder: { type: "trust_folder", sessionId: "s1", remember: true },
  mcp_reconnect: { type: "mcp_reconnect", sessionId: "s1", server: "everything" },
  send_message: { type: "send_message", sessionId: "s1", text: "hi" },
  cancel: { type: "cancel", sessionId: "s1" },
  approval_answer: {
    type: "approval_answer",
    sessionId: "s1",
    callId: "c1",
    answer: { kind: "deny", reason: "no" },
  },
  reload_catalog: { type: "reload_catalog", sessionId: "s1" },
  skill_figures: { type: "skill_figures", sessionId: "s1", name: "csv-report" },
  run_tool: { type: "run_tool", sessionId: "s1", requestId: "r1", tool: "read_file", input: { path: "a" } },
  start_trigger_lab: {
    type: "start_trigger_lab",
    sessionId: "s1",
    evalPath: ".PseudoClaude/evals/triggers.yaml",
    runs: 3,
    concurrency: 4,
    ablation: { skill: "csv-report", description: "Other words." },
  },
  cancel_trigger_lab: { type: "cancel_trigger_lab", sessionId: "s1" },
  start_optimizer: {
    type: "start_optimizer",
    sessionId: "s1",
    skill: "csv-report",
    runs: 3,
    iterations: 5,
    holdout: 0.4,
    seed: 42,
    maxCalls: 100,
    maxUsd: 0.5,
  },
  optimizer_proposal: { type: "optimizer_proposal", sessionId: "s1", description: "Summarise a CSV." },
  cancel_optimizer: { type: "cancel_optimizer", sessionId: "s1" },
  apply_description: {
    type: "apply_description",
    sessionId: "s1",
    skill: "csv-report",
    description: "Summarise a CSV.",
  },
  catalog_budget: { type: "catalog_budget", sessionId: "s1", profile: "claude-code", contextWindow: 200_000 },
  manual_response: {
    type: "manual_response",
    sessionId: "s1",
    requestIndex: 1,
    text: "ok",
    toolCalls: [{ name: "read_file", input: { path: "a" } }],
  },
  skill_upload: {
    type: "skill_upload",
    sessionId: "s1",
    uploadId: "u1",
    index: 0,
    count: 1,
    data: "UEsFBg==",
  },
  install_skill: {
    type: "install_skill",
    sessionId: "s1",
    uploadId: "u1",
    fileName: "x.zip",
    layer: "user",
    dryRun: true,
    force: false,
  },
  fork_request: {
    type: "fork_request",
    sessionId: "s1",
    requestIndex: 1,
    kind: "edit",
    edits: [
      { kind: "stable", text: "S" },
      { kind: "environment", section: "base", text: "E" },
      { kind: "message", index: 0, content: "hi" },
      { kind: "tool", name: "read_file", description: "d", inputSchema: { type: "object" } },
      { kind: "skill_description", skill: "review", description: "new" },
    ],
    provider: "manual",
    model: "you",
  },
  get_runs: { type: "get_runs", sessionId: "s1" },
};

describe("client command schemas", () => {
  it("has a schema for every command type, and nothing else", () => {
    expect(Object.keys(commandSchemas).sort()).toEqual(Object.keys(samples).sort());
  });

  it.each(Object.values(samples).map((sample) => [sample.type, sample] as const))(
    "%s: a well-formed frame parses to the same command; an unknown field is named",
    (_type, sample) => {
      expect(parseClientCommand(JSON.stringify(sample))).toEqual({ ok: true, command: sample });
      const extra = parseClientCommand(JSON.stringify({ ...sample, extra: 1 }));
      expect(extra.ok).toBe(false);
      if (!extra.ok) expect(extra.message).toContain('has an unknown field "extra"');
    },
  );

  it("refuses a value outside an enum with the allowed values, and a workdir change on update", () => {
    const badMode = parseClientCommand(
      JSON.stringify({ type: "create_session", settings: { permissionMode: "yolo" } }),
    );
    expect(badMode).toMatchObject({ ok: false });
    if (!badMode.ok)
      expect(badMode.message).toContain(
        'must be one of "strict", "default", "acceptEdits", "bypassPermissions"',
      );
    const moved = parseClientCommand(
      JSON.stringify({ type: "update_session", sessionId: "s1", settings: { workdir: "/elsewhere" } }),
    );
    expect(moved).toMatchObject({ ok: false });
  });
});
