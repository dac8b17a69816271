// Edit & resend and Rerun from here over the real server: a branch is a session of its own whose log
// header names its origin; its first request is the origin's request #N with the edits applied (a skill
// description edit re-renders that index line), it continues as a normal conversation, it reopens with
// its edits still applied, and get_runs reports both sessions' runs for the compare view.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RequestSnapshot } from "../protocol/runner-events.ts";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";
import { TEST_SCENARIOS } from "./testing/scenarios.ts";
import { isEvent } from "./protocol-client.ts";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { sessionsDirectory } from "../session/session-hub.ts";
import { installFixtureLog } from "../session/fixtures/relocate.ts";

let server: TestServer;
let client: TestClient;
beforeEach(async () => {
  server = await startTestServer(TEST_SCENARIOS, { watch: false });
  client = await TestClient.connect(server);
});
afterEach(async () => {
  await client.close();
  await server.dispose();
});

function requests(sessionId: string): RequestSnapshot[] {
  return client.requests(sessionId);
}

async function originWithReview(): Promise<string> {
  const id = await client.createSession({ provider: "scripted" });
  const stop = await client.sendMessage(id, "please review the README");
  expect(stop.reason).toBe("completed");
  return id;
}

/** Forks through the protocol client and resolves with the branch's id once its first run stopped. */
async function fork(command: Parameters<TestClient["forkRequest"]>[0]): Promise<string> {
  const from = client.messages.length;
  const branchId = await client.forkRequest(command);
  await client.waitForEvent("stop", { sessionId: branchId, from });
  return branchId;
}

const runsOf = (sessionId: string) => client.runs(sessionId);

describe("branches", () => {
  it("resends request #1 with an edited skill description as a labelled branch that continues and reopens", async () => {
    const origin = await originWithReview();
    const first = requests(origin)[0];
    const before = first.system.stable;
    expect(first.listedSkills).toContain("review");
    const edited = "EDITED: review only when the user says the magic word.";
    const branchId = await fork({
      sessionId: origin,
      requestIndex: 1,
      kind: "edit",
      edits: [{ kind: "skill_description", skill: "review", description: edited }],
      provider: "scripted",
    });
    const opened = client.events(branchId).find((message) => message.event.type === "session_opened")!;
    if (opened.event.type !== "session_opened") throw new Error("unreachable");
    expect(opened.event.session.branch).toMatchObject({
      originSessionId: origin,
      requestIndex: 1,
      kind: "edit",
      label: "forked from #1: skill review description",
    });
    expect(opened.event.session.title).toBe("forked from #1: skill review description");

    // The first request is #1 again, numbered #2 (numbering continues from the fork): the same
    // conversation, the index line re-rendered with the edit.
    const branchRequests = requests(branchId);
    const resent = branchRequests[0];
    expect(resent.requestIndex).toBe(2);
    expect(resent.messages).toEqual(first.messages);
    expect(resent.system.stable).toContain(edited);
    expect(before).not.toContain(edited);
    const changedLines = resent.system.stable
      .split("\n")
      .filter((line) => !before.split("\n").includes(line));
    expect(changedLines).toHaveLength(1);
    expect(changedLines[0]).toContain("review");
    // No user message was added by the branch's first run; the copied one started the scenario.
    const started = client.events(branchId).find((message) => message.event.type === "run_started")!;
    expect(started.event).toMatchObject({ continues: true, userMessage: "" });
    expect(client.events(branchId).some((message) => message.event.type === "branch_started")).toBe(true);

    // It continues as a normal conversation, the edit still applied.
    const stop = await client.sendMessage(branchId, "hello again");
    expect(stop.reason).toBe("completed");
    expect(requests(branchId).at(-1)!.system.stable).toContain(edited);

    // A rerun of the branch's request is sent with the branch's edits (a branch of a branch keeps them).
    const rerunId = await fork({ sessionId: branchId, requestIndex: 2, kind: "rerun", edits: [] });
    expect(requests(rerunId)[0].stableHash).toBe(resent.stableHash);

    // The list shows the branch with its origin; reopened on a fresh server connection it keeps its edits.
    const sessions = await server.hub.list();
    expect(sessions.find((summary) => summary.id === branchId)?.branch?.originSessionId).toBe(origin);
    await server.hub.shutdown();
    const reopened = await server.hub.open(branchId);
    expect(reopened.summary().branch?.label).toBe("forked from #1: skill review description");
    const again = await TestClient.connect(server);
    try {
      again.send({ type: "open_session", sessionId: branchId });
      await again.waitForEvent("session_opened", { sessionId: branchId });
      const stopAgain = again.sendMessage(branchId, "hello once more");
      expect((await stopAgain).reason).toBe("completed");
      const last = again.requests(branchId).at(-1)!;
      expect(last.system.stable).toContain(edited);
    } finally {
      await again.close();
    }

    // Compare: both sessions' runs, with the prompt parts and the figures.
    const originRuns = await runsOf(origin);
    const branchRuns = await runsOf(branchId);
    expect(originRuns).toHaveLength(1);
    expect(originRuns[0]).toMatchObject({
      userMessage: "please review the README",
      skillsLoaded: ["review"],
      toolsCalled: ["load_skill", "read_file"],
      stopReason: "completed",
      finalAnswer: "Findings: none.",
    });
    expect(branchRuns[0].userMessage).toBe("");
    expect(branchRuns[0].requests[0].system.stable).toContain(edited);
    expect(branchRuns[0].requests[0].tokens!.total).toBeGreaterThan(0);
    expect(branchRuns[0].requests[0].tokenizer).toMatch(/o200k/);
    expect(branchRuns[0].requests[0].messages).toEqual(originRuns[0].requests[0].messages);
  });

  it("reruns a later request unchanged: same stable system, same messages, the active skill active again", async () => {
    const origin = await originWithReview();
    const second = requests(origin)[1];
    expect(second.activeSkills).toEqual(["review"]);
    const branchId = await fork({ sessionId: origin, requestIndex: 2, kind: "rerun", edits: [] });
    const resent = requests(branchId)[0];
    expect(resent.stableHash).toBe(second.stableHash);
    expect(resent.activeSkills).toEqual(["review"]);
    expect(resent.system.environment).toContain(`<skill name="review" source=`);
    expect(resent.messages).toEqual(second.messages);
    const summary = (await server.hub.list()).find((item) => item.id === branchId)!;
    expect(summary.branch).toMatchObject({
      kind: "rerun",
      label: "forked from #2: rerun, unchanged",
      edits: [],
    });
  });

  it("edits the stable system, an environment section, a message and a tool definition", async () => {
    const origin = await originWithReview();
    const branchId = await fork({
      sessionId: origin,
      requestIndex: 1,
      kind: "edit",
      edits: [
        { kind: "stable", text: "You are a terse assistant.\n" },
        { kind: "environment", section: "base", text: "# Environment\n- nothing to see\n" },
        { kind: "message", index: 0, content: "hello there" },
        { kind: "tool", name: "read_file", description: "Reads a file (edited)." },
      ],
    });
    const resent = requests(branchId)[0];
    expect(resent.system.stable).toBe("You are a terse assistant.\n");
    expect(resent.system.environment).toBe("# Environment\n- nothing to see\n");
    expect(resent.messages).toEqual([{ role: "user", content: "hello there" }]);
    expect(resent.tools.find((tool) => tool.name === "read_file")?.description).toBe(
      "Reads a file (edited).",
    );
    // The edited message picked another scenario: the hello one answered.
    const runs = await runsOf(branchId);
    expect(runs[0].finalAnswer).toBe("Hi there, nice to meet you.");
    expect((await server.hub.list()).find((item) => item.id === branchId)?.branch?.label).toBe(
      "forked from #1: stable system, environment base, message 0, tool read_file",
    );
  });

  it("refuses a request that does not exist and a skill the request does not list, naming what it has", async () => {
    const origin = await originWithReview();
    const from = client.messages.length;
    client.send({ type: "fork_request", sessionId: origin, requestIndex: 99, kind: "rerun", edits: [] });
    const missing = await client.waitFor((message) => message.type === "error", "error", { from });
    expect(missing).toMatchObject({ code: "not_found", command: "fork_request" });
    expect((missing as { message: string }).message).toContain("no request #99");
    const next = client.messages.length;
    client.send({
      type: "fork_request",
      sessionId: origin,
      requestIndex: 1,
      kind: "edit",
      edits: [{ kind: "skill_description", skill: "nope", description: "x" }],
    });
    const unknown = await client.waitFor((message) => message.type === "error", "error", { from: next });
    expect(unknown).toMatchObject({ code: "invalid_arguments" });
    expect((unknown as { message: string }).message).toMatch(
      /skill "nope" is not in request #1's index; listed: .*review/,
    );
    expect(client.messages.slice(from).some((message) => isEvent(message, "branch_started"))).toBe(false);
  });

  it("forks a request of a log written by the previous format (snapshots as $historyPrefix references)", async () => {
    const oldId = "20261202-100000-format1";
    const text = await installFixtureLog(server.home, "format-1-compact.jsonl", oldId, [
      ["__WORKDIR__", server.workdir],
      ["__SCENARIOS__", server.scenariosDir],
    ]);
    const branchId = await fork({ sessionId: oldId, requestIndex: 3, kind: "rerun", edits: [] });
    const resent = requests(branchId)[0];
    // Request #3 of that log was sent with the first 5 messages of its conversation.
    const messages = resent.messages;
    expect(messages).toHaveLength(5);
    expect(messages[0].role).toBe("user");
    expect(resent.activeSkills).toEqual(["review"]);
    // The fork only reads the old log: opening it appends (a catalog snapshot), nothing is rewritten.
    const after = await readFile(path.join(sessionsDirectory(server.home), `${oldId}.jsonl`), "utf8");
    expect(after.startsWith(text)).toBe(true);
    expect((await server.hub.list()).find((item) => item.id === oldId)?.branch).toBeUndefined();
  });

  it("keeps a key-shaped string typed into an edit out of the branch's log (S11)", async () => {
    const origin = await originWithReview();
    const key = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789";
    const branchId = await fork({
      sessionId: origin,
      requestIndex: 1,
      kind: "edit",
      edits: [
        { kind: "skill_description", skill: "review", description: `Use the key ${key} when reviewing.` },
      ],
    });
    const log = await readFile(path.join(sessionsDirectory(server.home), `${branchId}.jsonl`), "utf8");
    expect(log).not.toContain(key);
    expect(log).toMatch(/Use the key [^ ]*\[redacted\] when reviewing\./);
    expect(requests(branchId)[0].system.stable).not.toContain(key);
  });
});
