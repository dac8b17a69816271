// A branch is exact (issue 22 item 3), over the real server: "Rerun from here, unchanged" sends a first
// request whose segments have the origin request's hashes, segment by segment — the active skills'
// arguments, the tools of the origin's run (registered is not visible), the MCP server's tools, the
// settings the request was sent under, the date of its environment — and an edit changes only the
// segments it edits. Numbering continues from the forked request. What cannot be reproduced (a SOP or the
// catalog changed on disk since) is said on the branch (branch_checked), not left to differ silently.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { RequestEdit } from "../protocol/branch.ts";
import type { ResolvedRequest } from "../protocol/request-model.ts";
import type { PromptSegment } from "../protocol/runner-events.ts";
import type { SessionSettings } from "../protocol/wire.ts";
import { TokenCounter } from "../prompt/segments.ts";
import { EVERYTHING_SERVER } from "../mcp/testing/processes.ts";
import { installFixtureLog } from "../session/fixtures/relocate.ts";
import { sessionsDirectory } from "../session/session-hub.ts";
import { readSessionLog } from "../session/session-log.ts";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";
import { TEST_SCENARIOS } from "./testing/scenarios.ts";

/** This file's own token counter (the composition root a test is). */
const tokens = new TokenCounter();

const SCENARIOS = {
  ...TEST_SCENARIOS,
  // Three requests: none active; review (with its arguments); review and todo-triage, whose count_todos
  // tool was registered during the run and so is not in its tool list.
  "60-two-skills.yaml": `name: two-skills
match: "orders"
turns:
  - text: "Loading review."
    tool_calls:
      - { name: load_skill, input: { name: review, arguments: "src/orders.js" } }
  - text: "And the TODOs."
    tool_calls:
      - { name: load_skill, input: { name: todo-triage, arguments: "src" } }
  - text: "Both loaded."
`,
  "70-notes.yaml": `name: notes
match: "notes"
turns:
  - tool_calls:
      - { name: load_skill, input: { name: notes, arguments: "today" } }
  - text: "Noted."
`,
};

let server: TestServer;
let client: TestClient;

async function start(): Promise<void> {
  server = await startTestServer(SCENARIOS, { watch: false });
  client = await TestClient.connect(server);
}
afterEach(async () => {
  await client?.close();
  await server?.dispose();
});

/** The session's requests as the client received them, resolved in full (server/protocol/request-model.ts). */
function requests(sessionId: string): ResolvedRequest[] {
  return client.requests(sessionId);
}

/** Every segment of a request as the client received it: the snapshot's, its messages' from the history. */
function segments(snapshot: ResolvedRequest): Map<string, PromptSegment> {
  const others = (snapshot.segments ?? []).filter((segment) => segment.kind !== "message");
  const messages = tokens.messageSegments(snapshot.messages);
  return new Map([...others, ...messages].map((segment) => [`${segment.kind}:${segment.name}`, segment]));
}

/** The segments whose hash differs between two requests (or that only one has). */
function differing(left: Map<string, PromptSegment>, right: Map<string, PromptSegment>): string[] {
  const names = new Set([...left.keys(), ...right.keys()]);
  return [...names].filter((name) => left.get(name)?.hash !== right.get(name)?.hash).sort();
}

async function fork(command: Parameters<TestClient["forkRequest"]>[0]): Promise<string> {
  const from = client.messages.length;
  const branchId = await client.forkRequest(command);
  await client.waitForEvent("stop", { sessionId: branchId, from });
  return branchId;
}

function branchCheck(branchId: string) {
  const checked = client.events(branchId).find((message) => message.event.type === "branch_checked");
  if (checked?.event.type !== "branch_checked") throw new Error(`branch ${branchId} sent no branch_checked`);
  return checked.event.check;
}

async function updateSettings(sessionId: string, settings: Partial<SessionSettings>): Promise<void> {
  const from = client.messages.length;
  client.send({ type: "update_session", sessionId, settings });
  await client.waitForEvent("settings_changed", { sessionId, from });
}

async function origin(settings: Partial<SessionSettings> = {}): Promise<string> {
  const { catalogBudget, ...created } = settings;
  const id = await client.createSession({ provider: "scripted", ...created });
  // create_session takes no listing budget: it is set the way the page sets it.
  if (catalogBudget) await updateSettings(id, { catalogBudget });
  expect((await client.sendMessage(id, "check the orders")).reason).toBe("completed");
  return id;
}

describe("Rerun from here, unchanged", () => {
  it("sends the origin request's segments, hash by hash: skill arguments, the run's tool list, numbering from #N+1", async () => {
    await start();
    const id = await origin();
    const third = requests(id)[2]!;
    expect(third.activeSkills).toEqual(["review", "todo-triage"]);
    expect(third.system.environment).toContain("What to review: src/orders.js");
    expect(third.registeredNotVisible).toContain("count_todos");

    const branchId = await fork({ sessionId: id, requestIndex: 3, kind: "rerun", edits: [] });
    const resent = requests(branchId)[0]!;
    // Numbering continues from the request it forks.
    expect(resent.requestIndex).toBe(4);
    expect(resent.system.environment).toContain("What to review: src/orders.js");
    expect(resent.tools.map((tool) => tool.name)).not.toContain("count_todos");
    const before = segments(third);
    const after = segments(resent);
    expect([...after.keys()]).toEqual([...before.keys()]);
    expect(differing(before, after)).toEqual([]);
    expect(branchCheck(branchId)).toMatchObject({
      requestIndex: 4,
      originRequestIndex: 3,
      exact: true,
      edited: [],
      differences: [],
      compared: before.size,
    });

    // The check is in the branch's log, and the log reads back without a warning (log schema).
    await server.hub.runs(branchId);
    const logged = await readSessionLog(path.join(sessionsDirectory(server.home), `${branchId}.jsonl`));
    expect(logged.warnings).toEqual([]);
    expect(logged.events.some((record) => record.event.type === "branch_checked")).toBe(true);

    // A fork of #2 sends #3 first; a later message in the branch goes on from there.
    const second = await fork({ sessionId: id, requestIndex: 2, kind: "rerun", edits: [] });
    expect(requests(second)[0]!.requestIndex).toBe(3);
    expect(differing(segments(requests(id)[1]!), segments(requests(second)[0]!))).toEqual([]);
    const last = requests(second).at(-1)!.requestIndex;
    await client.sendMessage(second, "hello");
    expect(requests(second).at(-1)!.requestIndex).toBe(last + 1);
  });

  it("uses the settings the request was sent under, not the origin's settings of now", async () => {
    await start();
    const sentWith: Partial<SessionSettings> = {
      disclosure: "eager",
      skillPlacement: "message",
      cacheBreakpoints: "stable",
      cacheAs: "claude-sonnet-4-5",
      honourAllowedTools: true,
      lintProfile: "claude-code",
      catalogBudget: { profile: "codex", contextWindow: 4000 },
      refreshToolsEachIteration: true,
    };
    const id = await origin(sentWith);
    const third = requests(id)[2]!;
    await updateSettings(id, {
      disclosure: "progressive",
      skillPlacement: "environment",
      cacheBreakpoints: "rolling",
      cacheAs: "gpt-5",
      honourAllowedTools: false,
      lintProfile: "lenient",
      catalogBudget: null,
      refreshToolsEachIteration: false,
    });

    const branchId = await fork({ sessionId: id, requestIndex: 3, kind: "rerun", edits: [] });
    const resent = requests(branchId)[0]!;
    expect(differing(segments(third), segments(resent))).toEqual([]);
    expect(branchCheck(branchId).exact).toBe(true);
    const summary = (await server.hub.list()).find((item) => item.id === branchId)!;
    expect(summary.settings).toMatchObject(sentWith);
    expect(resent.cache?.breakpoints).toBe(third.cache?.breakpoints);
    expect(resent.cache?.model).toBe(third.cache?.model);
  });
});

describe("Edit & resend", () => {
  it("changes only the segments each edit names", async () => {
    await start();
    const id = await origin();
    const third = requests(id)[2]!;
    const before = segments(third);
    const cases: { edits: RequestEdit[]; changed: string[]; label: string }[] = [
      {
        edits: [{ kind: "skill_description", skill: "review", description: "Review only on Tuesdays." }],
        changed: ["system:stable"],
        label: "stable system",
      },
      {
        edits: [
          { kind: "environment", section: "review", text: '<skill name="review">\nBe brief.\n</skill>\n' },
        ],
        changed: ["environment:review"],
        label: "environment review",
      },
      {
        edits: [{ kind: "message", index: 0, content: "review the orders, briefly" }],
        changed: ["message:0"],
        label: "message 0",
      },
      {
        edits: [{ kind: "tool", name: "read_file", description: "Reads a file (edited)." }],
        changed: ["tool:read_file"],
        label: "tool read_file",
      },
    ];
    for (const { edits, changed, label } of cases) {
      const branchId = await fork({ sessionId: id, requestIndex: 3, kind: "edit", edits });
      const resent = requests(branchId)[0]!;
      expect(differing(before, segments(resent)), label).toEqual(changed);
      expect(branchCheck(branchId), label).toMatchObject({ exact: true, edited: [label], differences: [] });
    }
  });
});

describe("Edit & resend to another provider", () => {
  it("changes the environment's provider and model lines, listed as an edit, and nothing else", async () => {
    await start();
    const id = await origin();
    const third = requests(id)[2]!;
    const from = client.messages.length;
    const branchId = await client.forkRequest({
      sessionId: id,
      requestIndex: 3,
      kind: "edit",
      edits: [],
      provider: "manual",
    });
    // The manual provider waits for the person; the check comes with the request it waits on.
    const checked = await client.waitForEvent("branch_checked", { sessionId: branchId, from });
    const resent = requests(branchId)[0]!;
    expect(resent.provider).toBe("manual");
    expect(resent.system.environment).toContain("- Provider: manual\n");
    expect(differing(segments(third), segments(resent))).toEqual(["environment:base"]);
    expect(checked.event.check).toMatchObject({
      exact: true,
      edited: [`provider and model (manual/${resent.model})`],
      differences: [],
    });
  });
});

describe("what a branch cannot reproduce", () => {
  it("says on the branch that the catalog and a SOP changed on disk since the request", async () => {
    await start();
    const skill = path.join(server.workdir, ".PseudoClaude", "skills", "notes");
    await mkdir(skill, { recursive: true });
    const file = path.join(skill, "SKILL.md");
    await writeFile(
      file,
      "---\nname: notes\ndescription: Take notes about $ARGUMENTS.\n---\n\nNotes for: $ARGUMENTS\n",
    );
    const id = await client.createSession({ provider: "scripted" });
    expect((await client.sendMessage(id, "take notes")).reason).toBe("completed");
    await writeFile(
      file,
      "---\nname: notes\ndescription: Take short notes.\n---\n\nShort notes for: $ARGUMENTS\n",
    );

    const branchId = await fork({ sessionId: id, requestIndex: 2, kind: "rerun", edits: [] });
    expect(requests(branchId)[0]!.system.environment).toContain("Short notes for: today");
    const check = branchCheck(branchId);
    expect(check.exact).toBe(false);
    expect(check.differences).toEqual([
      {
        kind: "system",
        name: "stable",
        reason: expect.stringContaining("the stable system changed since request #2"),
      },
      {
        kind: "environment",
        name: "notes",
        reason: expect.stringContaining("the SOP of skill notes changed since request #2"),
      },
    ]);
  });

  it("forks a format-1 log with the date of its request's environment, and says what it could not compare", async () => {
    await start();
    const oldId = "20261202-100000-format1";
    await installFixtureLog(server.home, "format-1-full.jsonl", oldId, [
      ["__WORKDIR__", server.workdir],
      ["__SCENARIOS__", server.scenariosDir],
    ]);
    const branchId = await fork({ sessionId: oldId, requestIndex: 3, kind: "rerun", edits: [] });
    const resent = requests(branchId)[0]!;
    expect(resent.requestIndex).toBe(4);
    // The fixture's requests were sent on 2026-12-02: the resend says so, whatever today is.
    expect(resent.system.environment).toContain("- Date: 2026-12-02\n");
    const check = branchCheck(branchId);
    expect(check.pinnedDate).toBe("2026-12-02");
    // Its environment was rendered by an older version (one part, no segment hashes): said, not hidden.
    expect(check.differences).toContainEqual(
      expect.objectContaining({ kind: "environment", name: "environment" }),
    );
    expect(check.compared).toBeGreaterThan(3);
  });
});

describe("a log written by the previous version (format 2, two skills active)", () => {
  it("forks with the skills' arguments, and says the only difference is the blank line that version put after a block", async () => {
    await start();
    for (const [name, body] of [
      ["alpha", "# Alpha\n\nWhat to review: $ARGUMENTS\n\n### Steps\n1. read\n---\n"],
      ["beta", "# Beta\n\nScope: $ARGUMENTS\n"],
    ]) {
      const folder = path.join(server.workdir, ".PseudoClaude", "skills", name!);
      await mkdir(folder, { recursive: true });
      await writeFile(
        path.join(folder, "SKILL.md"),
        `---\nname: ${name}\ndescription: The ${name} fixture skill.\n---\n\n${body}`,
      );
    }
    const repoSkills = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "skills");
    // Written by the playground before this change (see relocate.ts for how it moves to this test's folders).
    const oldId = "20261203-120000-format2";
    await installFixtureLog(server.home, "format-2-two-skills.jsonl", oldId, [
      ["__WORKDIR__", server.workdir],
      ["__SCENARIOS__", server.scenariosDir],
      ["__HOME__", server.home],
      ["__SKILLS__", repoSkills],
    ]);
    await client.send({ type: "open_session", sessionId: oldId });
    const logged = await client.waitForEvent("request", {
      sessionId: oldId,
      where: (event) => event.snapshot.requestIndex === 3,
    });
    const branchId = await fork({ sessionId: oldId, requestIndex: 3, kind: "rerun", edits: [] });
    const resent = requests(branchId)[0]!;
    expect(resent.requestIndex).toBe(4);
    expect(resent.activeSkills).toEqual(["alpha", "beta"]);
    expect(resent.system.environment).toContain("What to review: src/orders.js");
    expect(resent.system.environment).toContain("Scope: src\n");
    const check = branchCheck(branchId);
    expect(check.pinnedDate).toBe(logged.event.snapshot.at.slice(0, 10));
    // beta was the last block (no blank line after it), so only alpha's copy differs, and only by that.
    const environment = check.differences.filter((difference) => difference.kind === "environment");
    expect(environment).toEqual([
      {
        kind: "environment",
        name: "alpha",
        reason: expect.stringContaining("rendered by an older version, with a blank line after its block"),
      },
    ]);
    expect(check.differences.filter((difference) => difference.kind === "message")).toEqual([]);
  });
});

describe("a session with an MCP server", () => {
  /** The workdir's .mcp.json: the reference server-everything with these arguments. */
  const configureEverything = (args: string[]) =>
    writeFile(
      path.join(server.workdir, ".mcp.json"),
      JSON.stringify({ mcpServers: { everything: { command: "node", args: [EVERYTHING_SERVER, ...args] } } }),
    );

  /** A session whose folder is trusted for this session only, once its server is connected. */
  async function sessionTrustedWithServer(): Promise<string> {
    const id = await client.createSession({ provider: "scripted" });
    await client.waitForEvent("mcp_state", { sessionId: id });
    client.send({ type: "trust_folder", sessionId: id, remember: false });
    await client.waitForEvent("mcp_state", {
      sessionId: id,
      where: (event) => event.servers[0]?.status === "connected",
      timeoutMs: 30_000,
    });
    return id;
  }

  it("resends the server's tools as they were: the branch waits for the server and keeps the session's trust", async () => {
    await start();
    await configureEverything(["stdio"]);
    const id = await sessionTrustedWithServer();
    expect((await client.sendMessage(id, "check the orders")).reason).toBe("completed");
    const third = requests(id)[2]!;
    const mcpTools = third.tools.filter((tool) => tool.mcpServer === "everything").map((tool) => tool.name);
    expect(mcpTools).toContain("mcp__everything__echo");

    const branchId = await fork({ sessionId: id, requestIndex: 3, kind: "rerun", edits: [] });
    const resent = requests(branchId)[0]!;
    expect(resent.tools.map((tool) => tool.name)).toEqual(third.tools.map((tool) => tool.name));
    expect(differing(segments(third), segments(resent))).toEqual([]);
    expect(branchCheck(branchId).exact).toBe(true);
    const trust = client.events(branchId).findLast((message) => message.event.type === "trust_state");
    expect(trust?.event.type === "trust_state" && trust.event.trust).toMatchObject({
      trusted: true,
      via: "session",
    });
  }, 90_000);

  it("does not carry the session's trust to a branch once the folder's configuration changed", async () => {
    await start();
    await configureEverything(["stdio"]);
    const id = await sessionTrustedWithServer();
    expect((await client.sendMessage(id, "hello")).reason).toBe("completed");
    expect(requests(id)[0]!.tools.map((tool) => tool.name)).toContain("mcp__everything__echo");
    await configureEverything(["stdio", "--changed"]);
    const branchId = await fork({ sessionId: id, requestIndex: 1, kind: "rerun", edits: [] });
    const trust = client.events(branchId).findLast((message) => message.event.type === "trust_state");
    expect(trust?.event.type === "trust_state" && trust.event.trust.trusted).toBe(false);
    // The server was not started in the branch, so its tools are missing, and the branch says so.
    const check = branchCheck(branchId);
    expect(check.exact).toBe(false);
    expect(check.differences).toContainEqual(
      expect.objectContaining({
        kind: "tool",
        name: "mcp__everything__echo",
        reason: expect.stringContaining("not registered now"),
      }),
    );
  }, 90_000);
});
