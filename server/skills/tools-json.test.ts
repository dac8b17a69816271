import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isInside } from "../tools/confine.ts";
import { checkCommand, parseToolsJson, parseToolsJsonText } from "./tools-json.ts";

let root: string;
let skillDir: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "tools-json-"));
  skillDir = path.join(root, "skills", "demo");
  await mkdir(path.join(skillDir, "bin"), { recursive: true });
  await writeFile(path.join(skillDir, "bin", "run.sh"), "#!/bin/sh\necho hi\n", { mode: 0o755 });
  await writeFile(path.join(root, "outside.sh"), "#!/bin/sh\necho outside\n", { mode: 0o755 });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("parseToolsJsonText", () => {
  it("accepts a valid file and defaults input_schema", () => {
    const result = parseToolsJsonText(
      JSON.stringify({ tools: [{ name: "count", description: "Count.", command: ["node", "x.mjs"] }] }),
    );
    expect(result).toEqual({
      ok: true,
      tools: [
        {
          name: "count",
          description: "Count.",
          command: ["node", "x.mjs"],
          input_schema: { type: "object" },
        },
      ],
    });
  });

  it("reports invalid JSON with line and column", () => {
    const result = parseToolsJsonText('{\n  "tools": [\n    {"name": "a",}\n  ]\n}');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problem.reason).toMatch(/not valid JSON/);
      expect(result.problem.line).toBe(3);
    }
  });

  it("points a schema problem at the file line of the bad field and says what is allowed", () => {
    const text = [
      "{",
      '  "tools": [',
      "    {",
      '      "name": "a",',
      '      "description": "d",',
      '      "command": ["node"],',
      '      "input_schema": { "type": "array" },',
      '      "shell": true',
      "    }",
      "  ]",
      "}",
    ].join("\n");
    const problemOf = (source: string) => {
      const result = parseToolsJsonText(source);
      if (result.ok) throw new Error("expected a problem");
      return result.problem;
    };
    const badType = problemOf(text.replace(',\n      "shell": true', ""));
    expect(badType.line).toBe(7);
    expect(badType.reason).toMatch(/\/tools\/0\/input_schema\/type must be "object"/);
    const unknownField = problemOf(text.replace('"array"', '"object"'));
    expect(unknownField.line).toBe(8);
    expect(unknownField.reason).toMatch(/\/tools\/0 has an unknown field "shell"/);
  });

  it.each([
    ["missing tools", {}],
    ["empty command", { tools: [{ name: "a", description: "d", command: [] }] }],
    [
      "non-object input_schema",
      { tools: [{ name: "a", description: "d", command: ["node"], input_schema: { type: "string" } }] },
    ],
    ["bad name", { tools: [{ name: "a b", description: "d", command: ["node"] }] }],
    [
      "timeout over 600 s",
      { tools: [{ name: "a", description: "d", command: ["node"], timeout_ms: 600_001 }] },
    ],
    ["unknown field", { tools: [{ name: "a", description: "d", command: ["node"], shell: true }] }],
    [
      "duplicate names",
      {
        tools: [
          { name: "a", description: "d", command: ["node"] },
          { name: "a", description: "d", command: ["node"] },
        ],
      },
    ],
    [
      "uncompilable input_schema",
      {
        tools: [
          {
            name: "a",
            description: "d",
            command: ["node"],
            input_schema: { type: "object", properties: { x: { type: "banana" } } },
          },
        ],
      },
    ],
    [
      "a $id in input_schema",
      {
        tools: [
          {
            name: "a",
            description: "d",
            command: ["node"],
            input_schema: { type: "object", properties: { x: { $id: "x", type: "string" } } },
          },
        ],
      },
    ],
  ])("rejects %s", (_label, data) => {
    expect(parseToolsJsonText(JSON.stringify(data)).ok).toBe(false);
  });

  it("refuses a pattern the linear-time engine cannot run, naming the field and its line (S18)", () => {
    const text = JSON.stringify(
      {
        tools: [
          {
            name: "a",
            description: "d",
            command: ["node"],
            input_schema: {
              type: "object",
              properties: { code: { type: "string", pattern: "^(?=.*\\d).+$" } },
            },
          },
        ],
      },
      null,
      2,
    );
    const result = parseToolsJsonText(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem.reason).toMatch(
      /^tools\.json: \/tools\/0\/input_schema\/properties\/code\/pattern cannot be used: pattern .* cannot run in the linear-time regex engine \(RE2\).*lookahead/,
    );
    expect(result.problem.line).toBe(text.split("\n").findIndex((line) => line.includes('"pattern"')) + 1);
  });
});

describe("command escape check", () => {
  it("accepts a program inside the skill folder and a bare name on PATH", async () => {
    const inside = await checkCommand(["./bin/run.sh"], skillDir);
    expect(inside).toMatchObject({ ok: true, isPath: true });
    expect(await checkCommand(["node", "script.mjs"], skillDir)).toEqual({
      ok: true,
      program: "node",
      isPath: false,
    });
  });

  it("rejects ../ escapes", async () => {
    const result = await checkCommand(["../../outside.sh"], skillDir);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(/outside the skill folder/);
  });

  it("rejects an absolute path outside the skill folder", async () => {
    expect((await checkCommand(["/bin/sh", "-c", "id"], skillDir)).ok).toBe(false);
    expect((await checkCommand([path.join(root, "outside.sh")], skillDir)).ok).toBe(false);
  });

  it("rejects a symlink inside the folder that points outside", async () => {
    await symlink(path.join(root, "outside.sh"), path.join(skillDir, "bin", "link.sh"));
    const result = await checkCommand(["./bin/link.sh"], skillDir);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(/outside\.sh/);
  });

  it("rejects a sibling folder with the same prefix", async () => {
    const sibling = `${skillDir}-evil`;
    await mkdir(sibling, { recursive: true });
    await writeFile(path.join(sibling, "x.sh"), "#!/bin/sh\n", { mode: 0o755 });
    expect((await checkCommand([path.join(sibling, "x.sh")], skillDir)).ok).toBe(false);
    expect(isInside("/w/proj", "/w/proj-evil/f")).toBe(false);
    expect(isInside("/w/proj", "/w/proj/..x")).toBe(true);
  });

  it("rejects a missing program and a name not on PATH", async () => {
    expect((await checkCommand(["./bin/absent.sh"], skillDir)).ok).toBe(false);
    expect((await checkCommand(["definitely-not-a-program-xyz"], skillDir)).ok).toBe(false);
  });

  it("parseToolsJson applies the check to every tool", async () => {
    const text = JSON.stringify({ tools: [{ name: "a", description: "d", command: ["../../outside.sh"] }] });
    const result = await parseToolsJson(text, skillDir);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problem.reason).toMatch(/tool "a"/);
  });
});
