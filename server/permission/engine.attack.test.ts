// Engine bypasses found by a fresh-eyes review (issue #10): the parsed line must not hide where it writes.
import { describe, expect, it } from "vitest";
import type { SandboxState } from "../protocol/sandbox.ts";
import { createSystemTools } from "../tools/system/index.ts";
import { createMcpTool } from "../mcp/mcp-tool.ts";
import { PermissionEngine } from "./engine.ts";
import { parseRule } from "./rules.ts";
import type { PermissionCheck } from "./types.ts";

const workdir = "/work/project";
const sandbox: SandboxState = { enabled: true, mechanism: "bubblewrap", network: false };
const runCommand = createSystemTools().find((tool) => tool.definition.name === "run_command")!.definition;

function command(text: string): PermissionCheck {
  return {
    callId: "c1",
    tool: runCommand,
    input: { command: text },
    target: { cwd: workdir, command: text },
  };
}

describe("CDPATH moves a relative `cd` where the line does not show", () => {
  const engine = new PermissionEngine({ sandbox, mode: "bypassPermissions" });

  it.each([
    "export CDPATH=/; cd etc; rm -rf .",
    "CDPATH=/; cd etc && rm -rf .",
    'export "CD""PATH=/"; cd etc && rm -rf .',
    "read -r CDPATH <<< /; cd etc && rm -rf .",
  ])("`%s` is not allowed by the mode", (line) => {
    expect(engine.evaluate(command(line)).decision).not.toBe("allow");
  });

  it.each([
    "CDPATH=.git cd hooks && echo x > pre-commit",
    "export CDPATH=.git; cd hooks && echo x > pre-commit",
    "CDPATH=/work/project/.PseudoClaude; cd skills && echo x > SKILL.md",
  ])("`%s` asks as a write that may reach a protected folder", (line) => {
    expect(engine.evaluate(command(line)).decision).toBe("ask");
  });

  it("a line that never mentions CDPATH still follows `cd sub` as a folder of the workdir", () => {
    expect(engine.evaluate(command("cd sub && echo x > out.txt")).decision).toBe("allow");
    expect(engine.evaluate(command("cd ./sub && rm -rf ./build")).decision).toBe("allow");
  });
});

describe("invisible characters that are not controls or formats still show and still ask", () => {
  const engine = new PermissionEngine({
    sandbox: { ...sandbox, network: true },
    rules: [],
    mode: "bypassPermissions",
  });

  // Variation selectors carry one byte each and render as nothing ("ASCII smuggling" into a URL the user
  // approves); Hangul fillers and the combining grapheme joiner render as blank or nothing.
  it.each([
    ["a variation selector", "curl https://ok.example/?q=\u{E0100}\u{E0131}\u{FE01}", "\\u{E0100}"],
    ["a Hangul filler", "ls\u3164 -la", "\\u3164"],
    ["a halfwidth Hangul filler", "echo safe\uFFA0&& touch x", "\\uFFA0"],
    ["a combining grapheme joiner", "cat notes\u034F.txt", "\\u034F"],
    // The shell splits words on ASCII blanks only: this reads as `echo hi` and a comment, and runs `rm`.
    ["a no-break space before a `#` that is no comment", "echo hi\u00A0#\u00A0&& rm -rf src", "\\u00A0"],
    ["an em space", "echo hi\u2003#\u2003; rm -rf src", "\\u2003"],
    ["an ideographic space", "ls\u3000; rm -rf src", "\\u3000"],
    ["a braille blank", "echo hi\u2800#\u2800&& rm -rf src", "\\u2800"],
    ["a Khmer invisible vowel", "cat notes\u17B4.txt", "\\u17B4"],
  ])("%s is reported and asks", (_name, line, escaped) => {
    const trace = engine.evaluate(command(line));
    expect(trace.decision).toBe("ask");
    expect(trace.hiddenCharacters).toContain(escaped);
  });
});

// Issue #20 class 8, SECURITY S13 for MCP: an MCP tool's input is all its approval card can show, so a
// hidden character anywhere in it (a value, a key, deep inside) is flagged as in a command: it asks in
// every mode, whatever the rules, and the trace lists it escaped for the card's warning.
describe("hidden characters in an MCP tool call's input", () => {
  const tool = createMcpTool(
    { name: "notes", callTool: () => Promise.reject(new Error("never called")) },
    {
      name: "mcp__notes__save",
      tool: "save",
      description: "Saves a note",
      inputSchema: { type: "object" },
      definitionTokens: 1,
    },
  );
  const mcpCheck = (input: Record<string, unknown>): PermissionCheck => ({
    callId: "c1",
    tool: tool.definition,
    input,
    target: tool.describe(input as never, { workdir }),
  });
  const allowed = parseRule("allow", "mcp__notes__save", "test settings");
  if (typeof allowed === "string") throw new Error(allowed);

  it.each([
    ["a bidi override in a value", { text: "safe\u202E txt.exe" }, "\\u202E"],
    ["a zero-width space in a key", { "pa\u200Bth": "notes.md" }, "\\u200B"],
    ["an escape deep in an array", { items: [{ text: "ok" }, { text: "\u001b[2Jclear" }] }, "\\u001B"],
  ])("%s asks under an allow rule and in bypassPermissions", (_name, input, escaped) => {
    for (const mode of ["default", "bypassPermissions"] as const) {
      const engine = new PermissionEngine({ sandbox, mode, rules: [allowed] });
      const trace = engine.evaluate(mcpCheck(input));
      expect(trace, mode).toMatchObject({ decision: "ask", source: "parser", rule: "hidden characters" });
      expect(trace.hiddenCharacters).toContain(escaped);
      expect(trace.reason).toContain("the input contains characters that do not show");
    }
  });

  it("plain text, emoji and other scripts in the input stay allowed by the rule", () => {
    const engine = new PermissionEngine({ sandbox, mode: "default", rules: [allowed] });
    expect(engine.evaluate(mcpCheck({ text: "naïve café — 日本語 👍", n: 3 })).decision).toBe("allow");
  });
});
