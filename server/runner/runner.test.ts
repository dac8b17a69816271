import { readFileSync } from "node:fs";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChatMessage, ToolResult } from "../protocol/model.ts";
import type { ProviderEvent } from "../providers/types.ts";
import { WORKDIR_ENV_VAR } from "../skills/skill-tool.ts";
import { okResult } from "../tools/types.ts";
import { Runner } from "./runner.ts";
import { TOOL_STOP_SETTLE_MS } from "./tool-call.ts";
import { createHarness, readNote, REVIEW_BODY, ROWS_BODY, type Harness } from "../testing/runner-harness.ts";

let harness: Harness;
beforeEach(async () => {
  harness = await createHarness();
});
afterEach(async () => {
  await harness.cleanup();
});

const LOAD_REVIEW_THEN_ANSWER = `
name: review-demo
turns:
  - text: Let me load the review skill.
    tool_calls:
      - { name: load_skill, input: { name: review } }
  - text: "Findings: none."
  - text: Second run answer.
`;

/** Pids whose environment names this workdir (skill tools get PSEUDOCLAUDE_WORKDIR), once one is running. */
async function processesOfCall(workdir: string, timeoutMs = 10_000): Promise<number[]> {
  const marker = `${WORKDIR_ENV_VAR}=${workdir}\0`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found: number[] = [];
    for (const entry of await readdir("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      const environ = await readFile(`/proc/${entry}/environ`, "utf8").catch(() => "");
      if (`${environ}`.includes(marker)) found.push(Number(entry));
    }
    if (found.length > 0 || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A pid that can still run code: present in /proc, not a zombie, and still holding its memory. A process
 * the kernel is tearing down (a PID namespace whose init was killed) has released its memory (empty
 * cmdline) and runs no more user code, even while its pid is not yet reaped.
 */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    if (/^\d+ \(.*\) [ZX]/.test(stat)) return false;
    return readFileSync(`/proc/${pid}/cmdline`).length > 0;
  } catch {
    // No /proc entry: the process is gone.
    return false;
  }
}

function toolMessages(history: ChatMessage[]) {
  return history.filter((message) => message.role === "tool");
}

describe("Runner: progressive disclosure", () => {
  it("lists the catalog index in the stable system and never a body", async () => {
    const runner = new Runner(harness.deps(harness.scripted(LOAD_REVIEW_THEN_ANSWER)));
    const outcome = await runner.run("review my code");
    expect(outcome.reason).toBe("completed");
    for (const snapshot of harness.requests()) {
      expect(snapshot.system.stable).toContain("- review: Review code for bugs.");
      expect(snapshot.system.stable).toContain("- rows: Count CSV rows.");
      expect(snapshot.system.stable).not.toContain(REVIEW_BODY);
      expect(snapshot.system.stable).not.toContain(ROWS_BODY);
      expect(snapshot.listedSkills).toEqual(["review", "rows"]);
    }
  });

  it("placement experiment: the SOP arrives in load_skill's result as the same delimited block", async () => {
    await new Runner(
      harness.deps(harness.scripted(LOAD_REVIEW_THEN_ANSWER), { skillPlacement: "message" }),
    ).run("review my code");
    const [, second] = harness.requests();
    expect(second.system.environment).not.toContain(REVIEW_BODY);
    const result = second.messages!.find((message) => message.role === "tool")!;
    expect(result.content).toContain(`\n\n<skill name="review" source="builtin">\n${REVIEW_BODY}`);
    expect(result.content.endsWith("\n</skill>")).toBe(true);
  });

  it("puts the active body in the environment after load_skill, not in the stable system", async () => {
    await new Runner(harness.deps(harness.scripted(LOAD_REVIEW_THEN_ANSWER))).run("review my code");
    const [first, second] = harness.requests();
    expect(first.system.environment).not.toContain(REVIEW_BODY);
    expect(first.activeSkills).toEqual([]);
    expect(second.system.environment).toContain(`<skill name="review" source="builtin">\n${REVIEW_BODY}`);
    expect(second.system.stable).not.toContain(REVIEW_BODY);
    expect(second.activeSkills).toEqual(["review"]);
    const types = harness.events.map((event) => event.type);
    expect(types).toContain("skill_activated");
    expect(harness.events.find((event) => event.type === "skill_activated")).toMatchObject({
      name: "review",
      source: "builtin",
      position: 0,
    });
    expect(toolMessages(harness.history)[0]).toMatchObject({
      content: 'loaded skill "review" (0 specialized tools registered)',
      isError: false,
    });
  });

  it("keeps the stable system byte-identical across requests and runs", async () => {
    const runner = new Runner(harness.deps(harness.scripted(LOAD_REVIEW_THEN_ANSWER)));
    await runner.run("review my code");
    await runner.run("and again");
    const requests = harness.requests();
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((snapshot) => snapshot.system.stable)).size).toBe(1);
    expect(new Set(requests.map((snapshot) => snapshot.stableHash)).size).toBe(1);
    expect(requests.map((snapshot) => snapshot.requestIndex)).toEqual([1, 2, 3]);
    expect(requests[0].eagerStableLength).not.toBe(requests[0].system.stable.length);
  });

  it("shows a skill tool registered in run 1 only in run 2's definitions", async () => {
    const provider = harness.scripted(`
name: rows-demo
turns:
  - tool_calls:
      - { name: load_skill, input: { name: rows } }
  - text: The rows skill is loaded; its tool is visible from your next message.
  - tool_calls:
      - { name: count_rows, input: { text: "a\\nb\\nc" } }
  - text: Three rows.
`);
    const runner = new Runner(harness.deps(provider));
    await runner.run("count rows");
    const run1 = harness.requests();
    expect(harness.registry.isKnown("count_rows")).toBe(true);
    for (const snapshot of run1) expect(snapshot.tools.map((tool) => tool.name)).not.toContain("count_rows");
    expect(run1[1].registeredNotVisible).toEqual(["count_rows"]);
    expect(harness.events).toContainEqual(
      expect.objectContaining({ type: "tools_registered", skill: "rows", tools: ["count_rows"] }),
    );

    const outcome = await runner.run("now count them");
    expect(outcome.reason).toBe("completed");
    const run2 = harness.requests().slice(run1.length);
    for (const snapshot of run2) expect(snapshot.tools.map((tool) => tool.name)).toContain("count_rows");
    expect(run2[0].registeredNotVisible).toEqual([]);
    expect(toolMessages(harness.history).at(-1)).toMatchObject({
      toolName: "count_rows",
      content: "rows: 3\n",
      isError: false,
    });
  });

  it("refreshes definitions every iteration when the experiment is on", async () => {
    const provider = harness.scripted(`
name: rows-refresh
turns:
  - tool_calls:
      - { name: load_skill, input: { name: rows } }
  - text: done
`);
    await new Runner(harness.deps(provider)).run("count rows", { refreshToolsEachIteration: true });
    const [first, second] = harness.requests();
    expect(first.tools.map((tool) => tool.name)).not.toContain("count_rows");
    expect(second.tools.map((tool) => tool.name)).toContain("count_rows");
  });

  it("exposes read_only tools only in plan mode", async () => {
    await new Runner(harness.deps(harness.scripted("name: p\nturns:\n  - text: ok\n"))).run("plan", {
      planMode: true,
    });
    const names = harness.requests()[0].tools.map((tool) => tool.name);
    expect(names).toEqual(["load_skill", "echo"]);
    expect(harness.requests()[0].registeredNotVisible).toEqual(["write_note"]);
  });

  it("puts every body in the stable system in eager mode", async () => {
    const runner = new Runner(
      harness.deps(harness.scripted("name: e\nturns:\n  - text: ok\n"), { disclosure: "eager" }),
    );
    await runner.run("hi");
    const [snapshot] = harness.requests();
    expect(snapshot.disclosure).toBe("eager");
    expect(snapshot.system.stable).toContain(REVIEW_BODY);
    expect(snapshot.eagerStableLength).toBe(snapshot.system.stable.length);
  });
});

describe("Runner: effects", () => {
  it("turns a result's typed effects into events, and never reads them from metadata", async () => {
    const tool = (name: string, result: ToolResult) => ({
      definition: {
        name,
        description: name,
        inputSchema: { type: "object" },
        safety: "read_only" as const,
        category: "read" as const,
        origin: "system" as const,
      },
      describe: (_input: unknown, context: { workdir: string }) => ({ cwd: context.workdir }),
      execute: async () => ({ result }),
    });
    // Metadata shaped like load_skill's, without effects: nothing was activated, so no event says so.
    harness.registry.register(
      tool(
        "looks_like_a_loader",
        okResult("looks_like_a_loader", "ok", { skill: "review", registered_tools: ["x"] }),
      ),
    );
    harness.registry.register(
      tool(
        "reports_effects",
        okResult("reports_effects", "ok", undefined, [
          { type: "skill_activated", skill: "review", source: "builtin", position: 0, arguments: "a.ts" },
          { type: "tools_registered", skill: "review", names: ["x"] },
        ]),
      ),
    );
    const provider = harness.scripted(`
name: effects
turns:
  - tool_calls:
      - { name: looks_like_a_loader, input: {} }
      - { name: reports_effects, input: {} }
  - text: done
`);
    await new Runner(harness.deps(provider)).run("go");
    const types = harness.events.map((event) => event.type);
    const effectEvents = harness.events.filter(
      (event) => event.type === "skill_activated" || event.type === "tools_registered",
    );
    expect(effectEvents).toEqual([
      {
        type: "skill_activated",
        runId: expect.any(String),
        name: "review",
        source: "builtin",
        position: 0,
        arguments: "a.ts",
        // Level 1's cost: the tokens of its index line (o200k_base), counted by the runner.
        indexTokens: expect.any(Number),
      },
      { type: "tools_registered", runId: expect.any(String), skill: "review", tools: ["x"] },
    ]);
    // Each effect follows the result of the call that reported it.
    const secondResult = types.lastIndexOf("tool_result");
    expect(types.indexOf("skill_activated")).toBe(secondResult + 1);

    // One count per index line: the request snapshot carries the same figure the activation reports.
    const request = harness.events.find((event) => event.type === "request");
    const activated = effectEvents[0];
    expect(request?.type === "request" && request.snapshot.indexLineTokens?.review).toBe(
      activated.type === "skill_activated" ? activated.indexTokens : undefined,
    );
  });
});

describe("Runner: body reload at load_skill", () => {
  const scenario = `
name: reload
turns:
  - tool_calls:
      - { name: load_skill, input: { name: review } }
  - text: done
`;
  const skillFile = () => path.join(harness.root, "builtin", "review", "SKILL.md");

  it("picks up an edit made after start", async () => {
    await writeFile(
      skillFile(),
      "---\nname: review\ndescription: Review code for bugs.\n---\n\nEDITED-SOP: new steps.\n",
    );
    await new Runner(harness.deps(harness.scripted(scenario))).run("review");
    const second = harness.requests()[1];
    expect(second.system.environment).toContain(
      `<skill name="review" source="builtin">\nEDITED-SOP: new steps.`,
    );
    expect(second.system.environment).not.toContain(REVIEW_BODY);
  });

  it("falls back to the catalog snapshot when the file is gone", async () => {
    await rm(skillFile());
    await new Runner(harness.deps(harness.scripted(scenario))).run("review");
    expect(harness.requests()[1].system.environment).toContain(
      `<skill name="review" source="builtin">\n${REVIEW_BODY}`,
    );
    expect(toolMessages(harness.history)[0]).toMatchObject({ isError: false });
  });
});

describe("Runner: what the model sees when a call fails", () => {
  it("refuses a side-effect call in plan mode even when the model names a tool it cannot see", async () => {
    const provider = harness.scripted(`
name: plan-write
turns:
  - tool_calls:
      - { name: write_note, input: { text: hello } }
  - text: I will only describe the change.
`);
    const outcome = await new Runner(harness.deps(provider)).run("plan a note", { planMode: true });
    expect(outcome.reason).toBe("completed");
    expect(await readNote(harness)).toBeUndefined();
    const result = harness.events.find((event) => event.type === "tool_result");
    expect(result).toMatchObject({
      result: { ok: false, errorType: "permission_denied" },
      trace: { decision: "deny", source: "mode", rule: "plan" },
    });
    const toolMessage = harness.requests()[1].messages.find((message) => message.role === "tool");
    expect(toolMessage && toolMessage.content).toMatch(/plan mode allows read-only tools only/);
  });

  it("sends invalid_arguments back to the model", async () => {
    const provider = harness.scripted(`
name: bad-args
turns:
  - tool_calls:
      - { name: echo, input: { words: 3 } }
  - text: fixed
`);
    const outcome = await new Runner(harness.deps(provider)).run("echo");
    expect(outcome.reason).toBe("completed");
    const second = harness.requests()[1];
    const toolMessage = second.messages.find((message) => message.role === "tool");
    expect(toolMessage).toMatchObject({ isError: true });
    expect(toolMessage && toolMessage.content).toMatch(/^invalid arguments for echo: .*text/);
  });

  it("sends a permission denial with its rule back to the model, and writes nothing", async () => {
    harness.permission.sideEffect = "deny";
    const provider = harness.scripted(`
name: denied
turns:
  - tool_calls:
      - { name: write_note, input: { text: hello } }
  - text: I could not write the note.
`);
    await new Runner(harness.deps(provider)).run("write a note");
    const toolMessage = harness.requests()[1].messages.find((message) => message.role === "tool");
    expect(toolMessage && toolMessage.content).toBe(
      "permission denied (rule: deny write_note(*)) — test policy",
    );
    expect(await readNote(harness)).toBeUndefined();
    const result = harness.events.find((event) => event.type === "tool_result");
    expect(result).toMatchObject({ result: { errorType: "permission_denied" }, trace: { decision: "deny" } });
  });

  it("asks, shows the exact command, cwd and stdin of a skill tool, and remembers allow_session", async () => {
    harness.permission.sideEffect = "ask";
    harness.permission.answer = async () => ({ kind: "allow_session" });
    const provider = harness.scripted(`
name: ask
turns:
  - tool_calls:
      - { name: load_skill, input: { name: rows } }
      - { name: count_rows, input: { text: "x\\ny" } }
  - tool_calls:
      - { name: count_rows, input: { text: "x" } }
  - text: done
`);
    await new Runner(harness.deps(provider)).run("count");
    expect(harness.permission.asked).toHaveLength(1);
    const [request] = harness.permission.asked;
    expect(request).toMatchObject({
      tool: "count_rows",
      category: "exec",
      command: "node count.mjs",
      stdin: '{"text":"x\\ny"}',
    });
    expect(request.cwd).toMatch(/builtin\/rows$/);
    expect(harness.permission.remembered).toHaveLength(1);
    const contents = toolMessages(harness.history).map((message) => message.content);
    expect(contents.slice(1)).toEqual(["rows: 2\n", "rows: 1\n"]);
    const decisions = harness.events.filter((event) => event.type === "permission_decision");
    expect(decisions[1]).toMatchObject({
      answer: { kind: "allow_session" },
      trace: { source: "user", decision: "allow" },
    });
  });

  it("fails closed when the permission hook throws or stays silent", async () => {
    const scenario = `
name: hook
turns:
  - tool_calls:
      - { name: write_note, input: { text: one } }
  - tool_calls:
      - { name: write_note, input: { text: two } }
  - text: done
`;
    let calls = 0;
    const permission = {
      evaluate: () => {
        calls += 1;
        if (calls === 1) throw new Error("rules file unreadable");
        return new Promise<never>(() => undefined);
      },
      ask: async () => ({ kind: "allow_once" as const }),
    };
    await new Runner(harness.deps(harness.scripted(scenario), { permission, permissionTimeoutMs: 150 })).run(
      "go",
    );
    const results = harness.events.filter((event) => event.type === "tool_result");
    expect(results.map((event) => event.type === "tool_result" && event.trace?.source)).toEqual([
      "hook",
      "hook",
    ]);
    expect(toolMessages(harness.history)[0].content).toContain(
      "permission hook failed: rules file unreadable",
    );
    expect(toolMessages(harness.history)[1].content).toContain("did not answer within 150 ms");
    expect(await readNote(harness)).toBeUndefined();
  });
});

describe("Runner: stops", () => {
  it("stops at max_iterations (10 by default)", async () => {
    const turns = Array.from(
      { length: 12 },
      () => "  - tool_calls:\n      - { name: echo, input: { text: again } }",
    ).join("\n");
    const outcome = await new Runner(harness.deps(harness.scripted(`name: loop\nturns:\n${turns}\n`))).run(
      "loop",
    );
    expect(outcome).toMatchObject({ reason: "max_iterations", iterations: 10 });
    expect(harness.requests()).toHaveLength(10);
    expect(harness.events.at(-1)).toMatchObject({ type: "stop", reason: "max_iterations", iterations: 10 });
    expect(toolMessages(harness.history)).toHaveLength(10);
  });

  it("stops after two unknown tools in a row, and the model saw the error", async () => {
    const provider = harness.scripted(`
name: unknown
turns:
  - tool_calls:
      - { name: teleport, input: {} }
  - tool_calls:
      - { name: fly, input: {} }
      - { name: echo, input: { text: never } }
  - text: never reached
`);
    const outcome = await new Runner(harness.deps(provider)).run("go");
    expect(outcome.reason).toBe("unknown_tool_limit");
    const seen = harness.requests()[1].messages.find((message) => message.role === "tool");
    expect(seen && seen.content).toMatch(
      /^unknown tool "teleport"\. Tools you can call: load_skill, echo, write_note/,
    );
    const tools = toolMessages(harness.history);
    expect(tools.map((message) => message.toolName)).toEqual(["teleport", "fly", "echo"]);
    expect(tools[2].content).toBe("not run: the run stopped (unknown_tool_limit)");
  });

  it("resets the unknown-tool count after a known call", async () => {
    const provider = harness.scripted(`
name: unknown-reset
turns:
  - tool_calls:
      - { name: teleport, input: {} }
      - { name: echo, input: { text: hi } }
      - { name: fly, input: {} }
  - text: fine
`);
    expect((await new Runner(harness.deps(provider)).run("go")).reason).toBe("completed");
  });

  it("stops provider_error on a terminal error event and keeps the partial text", async () => {
    const failing = {
      name: "failing",
      model: "failing-1",
      async *stream(): AsyncIterable<ProviderEvent> {
        yield { type: "text_delta", text: "partial " };
        yield { type: "error", message: "HTTP 529 overloaded: try again later" };
      },
    };
    const outcome = await new Runner(harness.deps(failing)).run("hi");
    expect(outcome).toMatchObject({
      reason: "provider_error",
      message: "HTTP 529 overloaded: try again later",
    });
    expect(harness.history.at(-1)).toEqual({ role: "assistant", content: "partial ", toolCalls: [] });
  });

  it("cancels while a tool runs: the process is stopped and the run ends canceled", async () => {
    const provider = harness.scripted(`
name: slow
turns:
  - tool_calls:
      - { name: load_skill, input: { name: rows } }
      - { name: count_rows, input: { text: "a", sleepMs: 30000, ignoreTerm: true } }
  - text: never
`);
    const controller = new AbortController();
    const started = Date.now();
    let running: Promise<number[]> | undefined;
    const outcome = await new Runner(
      harness.deps(provider, {
        onEvent: (event) => {
          harness.events.push(event);
          // Stop once the tool's process is really there, so the test can see it go.
          if (event.type === "tool_started" && event.tool === "count_rows") {
            running = processesOfCall(harness.workdir).then((pids) => {
              controller.abort();
              return pids;
            });
          }
        },
      }),
    ).run("slow", { signal: controller.signal });
    expect(outcome.reason).toBe("canceled");
    expect(Date.now() - started).toBeLessThan(10_000);
    const pids = await running!;
    expect(pids.length).toBeGreaterThan(0);
    // The run reported its stop only after the killed process tree was gone.
    expect(pids.filter(isAlive)).toEqual([]);
    expect(toolMessages(harness.history).at(-1)).toMatchObject({ toolName: "count_rows", isError: true });
    // What the process really did: killed on Stop, with its details.
    const result = harness.events.find(
      (event) => event.type === "tool_result" && event.result.tool === "count_rows",
    );
    expect(result).toMatchObject({
      result: { ok: false, errorType: "canceled", metadata: { canceled: true, command: "node count.mjs" } },
    });
    expect(harness.events.at(-1)).toMatchObject({ type: "stop", reason: "canceled" });
  });

  it("Stop after a tool's side effect: the call keeps its real result, marked that Stop came first", async () => {
    // A tool that ignores Stop and writes anyway, the way a process may finish before the kill lands.
    harness.registry.register({
      definition: {
        name: "late_write",
        description: "Writes notes.txt when stopped.",
        inputSchema: { type: "object" },
        safety: "side_effect",
        category: "write",
        origin: "system",
      },
      describe: (_input, context) => ({ cwd: context.workdir, path: "notes.txt" }),
      execute: async (_input, context) => {
        if (!context.signal.aborted)
          await new Promise((resolve) => context.signal.addEventListener("abort", resolve, { once: true }));
        await writeFile(path.join(context.workdir, "notes.txt"), "written after Stop");
        return { result: okResult("late_write", "wrote notes.txt") };
      },
    });
    const provider = harness.scripted(`
name: late
turns:
  - tool_calls:
      - { name: late_write, input: {} }
      - { name: echo, input: { text: after } }
  - text: never
`);
    const controller = new AbortController();
    const outcome = await new Runner(
      harness.deps(provider, {
        onEvent: (event) => {
          harness.events.push(event);
          if (event.type === "tool_started") controller.abort();
        },
      }),
    ).run("write late", { signal: controller.signal });
    expect(outcome.reason).toBe("canceled");
    expect(await readNote(harness)).toBe("written after Stop");
    const result = harness.events.find((event) => event.type === "tool_result");
    expect(result).toMatchObject({
      result: { ok: true, tool: "late_write", metadata: { finishedDespiteStop: true } },
    });
    const [written, skipped] = toolMessages(harness.history);
    expect(written).toMatchObject({ toolName: "late_write", isError: false });
    expect(written.content).toMatch(
      /^wrote notes\.txt\n\[Stop was pressed while this call ran, but it finished/,
    );
    expect(skipped).toMatchObject({
      toolName: "echo",
      isError: true,
      content: "not run: the run stopped (canceled)",
    });
  });

  it("Stop and a tool that does not end: canceled after the bounded wait, its outcome called unknown", async () => {
    harness.registry.register({
      definition: {
        name: "stuck",
        description: "Never ends.",
        inputSchema: { type: "object" },
        safety: "read_only",
        category: "read",
        origin: "system",
      },
      describe: (_input, context) => ({ cwd: context.workdir }),
      execute: () => new Promise(() => {}),
    });
    const controller = new AbortController();
    const started = Date.now();
    const outcome = await new Runner(
      harness.deps(
        harness.scripted("name: stuck\nturns:\n  - tool_calls:\n      - { name: stuck, input: {} }\n"),
        {
          onEvent: (event) => {
            harness.events.push(event);
            if (event.type === "tool_started") controller.abort();
          },
        },
      ),
    ).run("hang", { signal: controller.signal });
    expect(outcome.reason).toBe("canceled");
    expect(Date.now() - started).toBeGreaterThanOrEqual(TOOL_STOP_SETTLE_MS - 50);
    const result = harness.events.find((event) => event.type === "tool_result");
    expect(result).toMatchObject({ result: { ok: false, errorType: "canceled" } });
    if (result?.type !== "tool_result") throw new Error("no tool_result");
    expect(result.result.content).toContain("so what it did is unknown");
  });

  it("cancels while waiting for approval", async () => {
    harness.permission.sideEffect = "ask";
    harness.permission.answer = (_request, signal) =>
      new Promise((resolve) =>
        signal.addEventListener("abort", () => resolve({ kind: "deny", reason: "aborted" })),
      );
    const controller = new AbortController();
    const provider = harness.scripted(`
name: approval
turns:
  - tool_calls:
      - { name: write_note, input: { text: hi } }
      - { name: echo, input: { text: after } }
  - text: never
`);
    const outcome = await new Runner(
      harness.deps(provider, {
        onEvent: (event) => {
          harness.events.push(event);
          if (event.type === "permission_request") controller.abort();
        },
      }),
    ).run("write", { signal: controller.signal });
    expect(outcome.reason).toBe("canceled");
    expect(await readNote(harness)).toBeUndefined();
    expect(toolMessages(harness.history).map((message) => message.content)).toEqual([
      "canceled by the user while waiting for approval",
      "not run: the run stopped (canceled)",
    ]);
  });

  it("cancels during streaming", async () => {
    const controller = new AbortController();
    const hanging = {
      name: "hanging",
      model: "hanging-1",
      async *stream(): AsyncIterable<ProviderEvent> {
        yield { type: "text_delta", text: "thinking" };
        await new Promise(() => undefined);
      },
    };
    const outcome = await new Runner(
      harness.deps(hanging, {
        onEvent: (event) => {
          harness.events.push(event);
          if (event.type === "text_delta") controller.abort();
        },
      }),
    ).run("hi", { signal: controller.signal });
    expect(outcome.reason).toBe("canceled");
    expect(harness.history.at(-1)).toEqual({ role: "assistant", content: "thinking", toolCalls: [] });
  });

  it("emits history_appended for every message it appends", async () => {
    await new Runner(harness.deps(harness.scripted(LOAD_REVIEW_THEN_ANSWER))).run("review");
    const appended = harness.events.flatMap((event) =>
      event.type === "history_appended" ? [event.message] : [],
    );
    expect(appended).toEqual(harness.history);
    expect(harness.history.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
  });
});

describe("Runner: hooks", () => {
  /** Records every request the provider is sent (the loop's own work). */
  function recorded(yaml: string) {
    const provider = harness.scripted(yaml);
    const sent: unknown[] = [];
    return {
      sent,
      provider: {
        name: provider.name,
        model: provider.model,
        stream: (request: Parameters<typeof provider.stream>[0], signal: AbortSignal) => {
          sent.push(structuredClone(request));
          return provider.stream(request, signal);
        },
      },
    };
  }

  it("without hooks the loop sends the same requests, and its events carry none of the session's figures", async () => {
    const bare = recorded(LOAD_REVIEW_THEN_ANSWER);
    await new Runner(harness.deps(bare.provider, { hooks: undefined })).run("please review");
    const bareEvents = harness.events.splice(0);
    harness.history.splice(0);
    harness.activeSkills.deactivate("review");
    const hooked = recorded(LOAD_REVIEW_THEN_ANSWER);
    await new Runner(harness.deps(hooked.provider)).run("please review");

    // The model is sent the same thing either way (the scripted model's call ids aside): the hooks only
    // describe it.
    const sameIds = (sent: unknown[]) => JSON.stringify(sent).replace(/call_[0-9a-f]+_/g, "call_");
    expect(sameIds(bare.sent)).toBe(sameIds(hooked.sent));
    const snapshots = (events: typeof bareEvents) =>
      events.flatMap((event) => (event.type === "request" ? [event.snapshot] : []));
    const [bareSnapshot] = snapshots(bareEvents);
    expect(bareSnapshot.registeredNotVisible).toEqual([]);
    for (const field of ["segments", "tokenizer", "eager", "eagerStableLength", "indexLineTokens", "cache"])
      expect(bareSnapshot).not.toHaveProperty(field);
    expect(bareEvents.find((event) => event.type === "run_started")).not.toHaveProperty("sandbox");
    expect(bareEvents.some((event) => event.type === "history_appended" && event.figures !== undefined)).toBe(
      false,
    );

    const [hookedSnapshot] = snapshots(harness.events);
    expect(hookedSnapshot.segments?.length).toBeGreaterThan(0);
    expect(hookedSnapshot.eager?.stableTokens).toBeGreaterThan(0);
    expect(hookedSnapshot.registeredNotVisible).toEqual(
      harness.registry.names().filter((name) => !hookedSnapshot.tools.some((tool) => tool.name === name)),
    );
    expect(harness.events.find((event) => event.type === "run_started")).toHaveProperty("sandbox");
  });
});
