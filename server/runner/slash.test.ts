import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChatMessage } from "../protocol/model.ts";
import { recentMessages, summarizeHistory } from "./history-window.ts";
import { parseSlashCommand, runUserMessage } from "./slash.ts";
import { createHarness, readNote, REVIEW_BODY, ROWS_BODY, type Harness } from "../testing/runner-harness.ts";

let harness: Harness;
/** What load_skill appends to a rendered SOP: where the skill lives (level 3 of disclosure). */
const baseDirBlock = (skill: string) =>
  `\n\nSkill base directory: ${path.join(harness.root, "builtin", skill)}`;
const ROWS_FILES =
  "\nFiles in this skill (relative to the base directory; read one with read_file on <base directory>/<path> only when a step needs it):\n" +
  "- count.mjs (348 B)";
beforeEach(async () => {
  harness = await createHarness();
});
afterEach(async () => {
  await harness.cleanup();
});

describe("parseSlashCommand", () => {
  it("splits the skill name from its arguments", () => {
    expect(parseSlashCommand("/review src/app.ts  --strict")).toEqual({
      skill: "review",
      args: "src/app.ts  --strict",
    });
    expect(parseSlashCommand("  /commit ")).toEqual({ skill: "commit", args: "" });
    expect(parseSlashCommand("/etc/passwd please")).toBeNull();
    expect(parseSlashCommand("review this")).toBeNull();
  });
});

describe("slash invocation", () => {
  it("runs a shared skill in the conversation with its rendered SOP as the user turn", async () => {
    const provider = harness.scripted("name: s\nturns:\n  - text: Reviewed.\n");
    const deps = { ...harness.deps(provider), skills: harness.catalog };
    const outcome = await runUserMessage("/review src/app.ts", deps);
    expect(outcome.reason).toBe("completed");
    expect(harness.events.slice(0, 3).map((event) => event.type)).toEqual([
      "run_started",
      "skill_activated",
      "tools_registered",
    ]);
    expect(harness.events[0]).toMatchObject({ skill: "review" });
    expect(harness.history[0]).toEqual({
      role: "user",
      content: `/review src/app.ts\n\n${REVIEW_BODY}\n\nArguments: src/app.ts${baseDirBlock("review")}`,
    });
    const [snapshot] = harness.requests();
    expect(snapshot.activeSkills).toEqual(["review"]);
    expect(snapshot.system.stable).not.toContain(REVIEW_BODY);
  });

  it("runs an isolated skill with only its tools and no history, then reports back to the conversation", async () => {
    harness.history.push(
      { role: "user", content: "earlier question" },
      { role: "assistant", content: "earlier answer", toolCalls: [] },
    );
    const provider = harness.scripted(`
name: rows-isolated
turns:
  - text: Counting them.
    tool_calls:
      - { name: count_rows, input: { text: "a\\nb" } }
  - text: There are 2 rows.
`);
    const deps = { ...harness.deps(provider), skills: harness.catalog };
    const outcome = await runUserMessage("/rows data.csv", deps);
    expect(outcome.reason).toBe("completed");
    const [first] = harness.requests();
    expect(first.messages).toEqual([
      {
        role: "user",
        content: `/rows data.csv\n\n${ROWS_BODY} Args: data.csv${baseDirBlock("rows")}${ROWS_FILES}`,
      },
    ]);
    expect(first.tools.map((tool) => tool.name).sort()).toEqual(["count_rows", "echo", "load_skill"]);
    expect(harness.history.slice(2)).toEqual([
      { role: "user", content: "/rows data.csv" },
      { role: "assistant", content: "There are 2 rows.", toolCalls: [] },
    ]);
    const appended = harness.events.flatMap((event) =>
      event.type === "history_appended" ? [event.message] : [],
    );
    expect(appended).toEqual(harness.history.slice(2));
    // The isolated run's own answers stay in the transcript (and the log) without joining the conversation.
    const answers = harness.events.flatMap((event) =>
      event.type === "assistant_message" ? [[event.requestIndex, event.message.content]] : [],
    );
    expect(answers).toEqual([
      [1, "Counting them."],
      [2, "There are 2 rows."],
    ]);
  });

  it("an isolated run refuses a registered tool outside its set, with a trace the model can read", async () => {
    // write_note is registered and allowed by the permission policy, but not one of the rows skill's tools.
    const provider = harness.scripted(`
name: rows-escape
turns:
  - tool_calls:
      - { name: write_note, input: { text: "escaped" } }
  - text: I may not write notes here.
`);
    const outcome = await runUserMessage("/rows data.csv", {
      ...harness.deps(provider),
      skills: harness.catalog,
    });
    expect(outcome.reason).toBe("completed");
    expect(await readNote(harness)).toBeUndefined();
    const result = harness.events.find((event) => event.type === "tool_result");
    expect(result).toMatchObject({
      result: { ok: false, errorType: "permission_denied" },
      trace: { decision: "deny", source: "mode", rule: "isolated" },
    });
    if (result?.type !== "tool_result") throw new Error("no tool_result");
    expect(result.result.content).toMatch(
      /^permission denied \(mode: isolated\) — the isolated run of skill "rows" may call only its own tools: /,
    );
    expect(result.result.content).toContain("count_rows");
    expect(result.result.content).not.toContain("write_note,");
  });

  it("uses a recent window or a summary, and the skill's model override", async () => {
    await writeFile(
      path.join(harness.root, "builtin", "rows", "SKILL.md"),
      `---\nname: rows\ndescription: Count CSV rows.\nmode: isolated\nhistory: summary\nmodel: tiny-model\n---\n\n${ROWS_BODY}\n`,
    );
    await harness.catalog.reload();
    harness.history.push(
      { role: "user", content: "please look at data.csv" },
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "echo", input: { text: "x" } }] },
      { role: "tool", toolCallId: "c1", toolName: "echo", content: "echo: x", isError: false },
      { role: "assistant", content: "It has a header row.", toolCalls: [] },
    );
    const provider = harness.scripted("name: sum\nturns:\n  - text: ok\n");
    await runUserMessage("/rows", { ...harness.deps(provider), skills: harness.catalog });
    const [snapshot] = harness.requests();
    expect(snapshot.model).toBe("tiny-model");
    expect(snapshot.messages).toHaveLength(1);
    expect(snapshot.messages[0].role === "user" && snapshot.messages[0].content).toBe(
      `Summary of the earlier conversation:\n- User: please look at data.csv\n- Tools used: echo\n- Assistant: It has a header row.\n\n---\n\n/rows\n\n${ROWS_BODY}${baseDirBlock("rows")}${ROWS_FILES}`,
    );
  });

  it("treats an unknown slash name as a normal message", async () => {
    const provider = harness.scripted("name: n\nturns:\n  - text: ok\n");
    await runUserMessage("/nosuch thing", { ...harness.deps(provider), skills: harness.catalog });
    expect(harness.history[0]).toEqual({ role: "user", content: "/nosuch thing" });
  });
});

describe("history windows", () => {
  const history: ChatMessage[] = [
    { role: "user", content: "one" },
    { role: "assistant", content: "", toolCalls: [{ id: "a", name: "echo", input: {} }] },
    { role: "tool", toolCallId: "a", toolName: "echo", content: "x", isError: false },
    { role: "assistant", content: "done one", toolCalls: [] },
    { role: "user", content: "two" },
    { role: "assistant", content: "", toolCalls: [{ id: "b", name: "echo", input: {} }] },
    { role: "tool", toolCallId: "b", toolName: "echo", content: "y", isError: false },
    { role: "assistant", content: "done two", toolCalls: [] },
  ];

  it("keeps the last messages starting at a user turn", () => {
    expect(recentMessages(history).map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
  });

  it("summarises without a model call", () => {
    expect(summarizeHistory(history)).toBe(
      "- User: one\n- Tools used: echo\n- Assistant: done one\n- User: two\n- Tools used: echo\n- Assistant: done two",
    );
    expect(summarizeHistory([])).toBe("(no earlier conversation)");
  });
});
