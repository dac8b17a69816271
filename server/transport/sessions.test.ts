// Sessions over the real socket: scripted runs end to end, approvals (N11), cancel, one run at a time,
// two sessions with their own workdirs, list/export/delete, and reopening after a server restart.
import { execFileSync } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readSessionLog } from "../session/session-log.ts";
import { sessionsDirectory } from "../session/session-hub.ts";
import { startServer } from "./start-server.ts";
import { TestClient, startTestServer, type TestServer } from "./testing/harness.ts";
import { TEST_SCENARIOS } from "./testing/scenarios.ts";

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer(
    { ...TEST_SCENARIOS, "30-sleep.yaml": TEST_SCENARIOS["30-sleep.yaml"].replace("sleep 600", "sleep 613") },
    { watch: false },
  );
});
afterEach(async () => {
  await server.dispose();
});

function sleepersAlive(): boolean {
  try {
    return execFileSync("pgrep", ["-f", "sleep 613"], { encoding: "utf8" }).trim().length > 0;
  } catch {
    return false; // pgrep exits 1 when nothing matches
  }
}

describe("sessions over the WebSocket", () => {
  it("plays a scripted run end to end: load_skill, a read, and a completed stop", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    await client.waitForEvent("catalog_snapshot", { sessionId });
    client.send({ type: "send_message", sessionId, text: "please review" });
    const stop = await client.waitForEvent("stop", { sessionId });
    expect(stop.event.reason).toBe("completed");
    const types = client.events(sessionId).map((message) => message.event.type);
    for (const expected of [
      "run_started",
      "request",
      "text_delta",
      "tool_call",
      "skill_activated",
      "tool_result",
      "history_appended",
    ]) {
      expect(types).toContain(expected);
    }
    // The assistant's answer arrives once: as the history_appended that names its request.
    expect(types).not.toContain("assistant_message");
    const answers = client
      .events(sessionId)
      .flatMap((message) =>
        message.event.type === "history_appended" && message.event.message.role === "assistant"
          ? [message.event]
          : [],
      );
    expect(answers.map((event) => event.requestIndex)).toEqual([1, 2, 3]);
    const requests = client
      .events(sessionId)
      .flatMap((message) => (message.event.type === "request" ? [message.event.snapshot] : []));
    expect(requests).toHaveLength(3);
    expect(requests[0].activeSkills).toEqual([]);
    expect(requests[1].activeSkills).toEqual(["review"]);
    client.close();
  });

  it("asks before a write; allow_once runs it; N11: replayed, foreign and unknown answers are rejected", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    const otherSession = await client.createSession();
    client.send({ type: "send_message", sessionId, text: "write a note" });
    const asked = await client.waitForEvent("permission_request", { sessionId });
    const callId = asked.event.request.callId;
    expect(asked.event.request).toMatchObject({ tool: "write_file", path: "note.txt", cwd: server.workdir });

    let from = client.messages.length;
    client.send({ type: "approval_answer", sessionId: otherSession, callId, answer: { kind: "allow_once" } });
    const foreign = await client.waitFor((message) => message.type === "error", "foreign approval error", {
      from,
    });
    expect(foreign).toMatchObject({ code: "invalid_arguments", sessionId: otherSession });

    from = client.messages.length;
    client.send({
      type: "approval_answer",
      sessionId,
      callId: "call_never_asked",
      answer: { kind: "allow_once" },
    });
    await client.waitFor((message) => message.type === "error", "unknown call id error", { from });

    client.send({ type: "approval_answer", sessionId, callId, answer: { kind: "allow_once" } });
    const result = await client.waitForEvent("tool_result", {
      sessionId,
      where: (event) => event.callId === callId,
    });
    expect(result.event.result.ok).toBe(true);
    expect(await readFile(path.join(server.workdir, "note.txt"), "utf8")).toBe("from the model");

    from = client.messages.length;
    client.send({ type: "approval_answer", sessionId, callId, answer: { kind: "allow_once" } });
    const replayed = await client.waitFor((message) => message.type === "error", "replayed approval error", {
      from,
    });
    if (replayed.type === "error") expect(replayed.message).toMatch(/no approval is waiting/);
    expect((await client.waitForEvent("stop", { sessionId })).event.reason).toBe("completed");
    client.close();
  });

  it("a denial reaches the model as a permission_denied tool result", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    client.send({ type: "send_message", sessionId, text: "write a note" });
    const asked = await client.waitForEvent("permission_request", { sessionId });
    client.send({
      type: "approval_answer",
      sessionId,
      callId: asked.event.request.callId,
      answer: { kind: "deny", reason: "not today" },
    });
    const result = await client.waitForEvent("tool_result", { sessionId });
    expect(result.event.result).toMatchObject({ ok: false, errorType: "permission_denied" });
    expect(result.event.result.content).toContain("not today");
    client.close();
  });

  it("one run at a time; Stop kills the running tool and the run ends canceled; closing the tab does not cancel", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    client.send({ type: "send_message", sessionId, text: "sleep a while" });
    await client.answerNextApproval(sessionId);
    await client.waitForEvent("tool_started", { sessionId });
    const from = client.messages.length;
    client.send({ type: "send_message", sessionId, text: "hello" });
    const busy = await client.waitFor((message) => message.type === "error", "busy error", { from });
    expect(busy).toMatchObject({
      code: "run_in_progress",
      message: "a run is in progress; press Stop or wait",
    });
    client.close();

    const deadline = Date.now() + 5_000;
    while (!sleepersAlive() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sleepersAlive()).toBe(true);
    const again = await TestClient.connect(server);
    again.send({ type: "open_session", sessionId });
    const opened = await again.waitForEvent("session_opened", { sessionId });
    expect(opened.event.session.running).toBe(true);
    again.send({ type: "cancel", sessionId });
    const stop = await again.waitForEvent("stop", { sessionId, timeoutMs: 15_000 });
    expect(stop.event.reason).toBe("canceled");
    expect(sleepersAlive()).toBe(false);
    again.close();
  }, 30_000);

  it("runs the tool console through the same permission path", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    client.send({
      type: "run_tool",
      sessionId,
      requestId: "r1",
      tool: "read_file",
      input: { path: "README.md" },
    });
    const read = await client.waitForEvent("tool_console_result", {
      sessionId,
      where: (event) => event.requestId === "r1",
    });
    expect(read.event.result.ok).toBe(true);
    expect(read.event.result.content).toContain("# demo");

    client.send({
      type: "run_tool",
      sessionId,
      requestId: "r2",
      tool: "run_command",
      input: { command: "echo console" },
    });
    const asked = await client.waitForEvent("permission_request", { sessionId });
    expect(asked.event.request.command).toBe("echo console");
    client.send({
      type: "approval_answer",
      sessionId,
      callId: asked.event.request.callId,
      answer: { kind: "allow_once" },
    });
    const ran = await client.waitForEvent("tool_console_result", {
      sessionId,
      where: (event) => event.requestId === "r2",
    });
    expect(ran.event.result.content).toContain("console");
    client.close();
  });

  it("keeps two sessions apart: own workdir, own catalog, own history", async () => {
    const otherWorkdir = path.join(server.root, "other");
    await mkdir(path.join(otherWorkdir, ".PseudoClaude", "skills", "only-here"), { recursive: true });
    await writeFile(
      path.join(otherWorkdir, ".PseudoClaude", "skills", "only-here", "SKILL.md"),
      "---\nname: only-here\ndescription: A project skill of the other workdir.\n---\nDo the local thing.\n",
    );
    const client = await TestClient.connect(server);
    const first = await client.createSession();
    const second = await client.createSession({ workdir: otherWorkdir });
    const firstCatalog = await client.waitForEvent("catalog_snapshot", { sessionId: first });
    const secondCatalog = await client.waitForEvent("catalog_snapshot", { sessionId: second });
    const names = (snapshot: typeof firstCatalog) => snapshot.event.catalog.skills.map((skill) => skill.name);
    expect(names(secondCatalog)).toContain("only-here");
    expect(names(firstCatalog)).not.toContain("only-here");
    client.send({ type: "send_message", sessionId: first, text: "hello" });
    client.send({ type: "send_message", sessionId: second, text: "write a note" });
    await client.waitForEvent("stop", { sessionId: first });
    const asked = await client.waitForEvent("permission_request", { sessionId: second });
    expect(asked.event.request.cwd).toBe(otherWorkdir);
    client.send({ type: "cancel", sessionId: second });
    await client.waitForEvent("stop", { sessionId: second });
    const from = client.messages.length;
    client.send({ type: "list_sessions" });
    const list = await client.waitFor((message) => message.type === "session_list", "session_list", { from });
    if (list.type === "session_list") {
      expect(list.sessions.find((session) => session.id === first)?.settings.workdir).toBe(server.workdir);
      expect(list.sessions.find((session) => session.id === second)?.settings.workdir).toBe(otherWorkdir);
    }
    client.close();
  });

  it("refuses a workdir that does not exist and a provider it does not know", async () => {
    const client = await TestClient.connect(server);
    let from = client.messages.length;
    client.send({ type: "create_session", settings: { workdir: path.join(server.root, "missing") } });
    const error = await client.waitFor((message) => message.type === "error", "error", { from });
    expect(error).toMatchObject({ code: "not_found", command: "create_session" });
    const sessionId = await client.createSession();
    from = client.messages.length;
    client.send({ type: "update_session", sessionId, settings: { provider: "gpt-9000" } });
    const unknown = await client.waitFor((message) => message.type === "error", "unknown provider", { from });
    if (unknown.type === "error")
      expect(unknown.message).toMatch(/unknown provider "gpt-9000": use one of scripted/);
    client.close();
  });

  it("D5: two clients on one session write one clean log; export and delete work", async () => {
    const first = await TestClient.connect(server);
    const second = await TestClient.connect(server);
    const sessionId = await first.createSession();
    second.send({ type: "open_session", sessionId });
    await second.waitForEvent("session_opened", { sessionId });
    for (let round = 0; round < 3; round++) {
      const from = first.messages.length;
      (round % 2 === 0 ? first : second).send({ type: "send_message", sessionId, text: "hello" });
      second.send({
        type: "update_session",
        sessionId,
        settings: { disclosure: round % 2 === 0 ? "eager" : "progressive" },
      });
      await first.waitForEvent("stop", { sessionId, from });
    }
    const exportFrom = second.messages.length;
    second.send({ type: "export_session", sessionId });
    const exported = await second.waitFor((message) => message.type === "session_export", "export", {
      from: exportFrom,
    });
    if (exported.type !== "session_export") throw new Error("no export");
    const lines = exported.jsonl.split("\n").filter((line) => line.length > 0);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(JSON.parse(lines[0])).toMatchObject({ kind: "header", id: sessionId });
    const logged = await readSessionLog(path.join(sessionsDirectory(server.home), `${sessionId}.jsonl`));
    expect(logged.warnings).toEqual([]);
    const seqs = logged.events.map((record) => record.seq);
    expect([...seqs].sort((left, right) => left - right)).toEqual(seqs);

    first.send({ type: "delete_session", sessionId });
    await first.waitFor((message) => message.type === "session_deleted", "session_deleted");
    expect((await server.hub.list()).some((session) => session.id === sessionId)).toBe(false);
    first.close();
    second.close();
  });

  it("reopens a session after a server restart: history, active skills, replay and the next run", async () => {
    const client = await TestClient.connect(server);
    const sessionId = await client.createSession();
    client.send({ type: "send_message", sessionId, text: "please review" });
    await client.waitForEvent("stop", { sessionId });
    client.close();
    await server.close();

    const restarted = await startServer({
      port: 0,
      home: server.home,
      defaultWorkdir: server.workdir,
      scenariosDir: server.scenariosDir,
      staticDir: path.join(server.root, "out"),
      log: () => undefined,
      watch: false,
    });
    try {
      const again = await TestClient.connect({
        ...server,
        ...restarted,
        origin: `http://127.0.0.1:${restarted.port}`,
      });
      again.send({ type: "list_sessions" });
      const list = await again.waitFor((message) => message.type === "session_list", "session_list");
      if (list.type === "session_list")
        expect(list.sessions.map((session) => session.id)).toContain(sessionId);
      again.send({ type: "open_session", sessionId });
      const opened = await again.waitForEvent("session_opened", { sessionId });
      expect(opened.event.activeSkills).toEqual(["review"]);
      expect((await again.openedConversation(opened)).map((message) => message.role)).toEqual([
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
      ]);
      await again.waitForEvent("request", { sessionId }); // replayed from the log
      const replayedUpTo = (await restarted.hub.open(sessionId)).lastSeq;
      await again.waitFor(
        (message) =>
          message.type === "event" && message.seq === replayedUpTo && message.event.type !== "session_opened",
        "the end of the replay",
      );
      const from = again.messages.length;
      again.send({ type: "send_message", sessionId, text: "hello" });
      const request = await again.waitForEvent("request", { sessionId, from });
      expect(request.event.snapshot.requestIndex).toBe(4);
      expect(request.event.snapshot.activeSkills).toEqual(["review"]);
      expect(again.resolveRequest(sessionId, request.event.snapshot).system.environment).toContain(
        `<skill name="review" source=`,
      );
      expect((await again.waitForEvent("stop", { sessionId, from })).event.reason).toBe("completed");
      again.close();
    } finally {
      await restarted.close();
    }
  });

  it("closes idle sessions beyond the limit and restores them on open", async () => {
    const limited = await startTestServer(TEST_SCENARIOS, { watch: false, maxOpenSessions: 1 });
    try {
      const first = await TestClient.connect(limited);
      const idleId = await first.createSession();
      first.send({ type: "send_message", sessionId: idleId, text: "hello" });
      await first.waitForEvent("stop", { sessionId: idleId });
      first.close();
      const deadline = Date.now() + 5_000;
      while (!limited.hub.openSessions.every((session) => session.isIdle) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const second = await TestClient.connect(limited);
      const busyId = await second.createSession();
      expect(limited.hub.openSessions.map((session) => session.id)).toEqual([busyId]);
      second.send({ type: "open_session", sessionId: idleId });
      const reopened = await second.waitForEvent("session_opened", { sessionId: idleId });
      expect((await second.openedConversation(reopened)).map((message) => message.role)).toEqual([
        "user",
        "assistant",
      ]);
      // The second session still has a subscriber, so it stays open beside the reopened one.
      expect(limited.hub.openSessions.map((session) => session.id).sort()).toEqual([busyId, idleId].sort());
      second.close();
    } finally {
      await limited.dispose();
    }
  });
});
