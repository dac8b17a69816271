// Deterministic parser fuzz (SECURITY: parser robustness): 10,000 generated and mutated SKILL.md and
// tools.json inputs from a seeded PRNG. No crash, no hang; each input parses or yields exactly one problem.
// The last batch goes through the real Catalog scan on disk: one skill or one warning per folder.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSkillMarkdown, type ParseProblem } from "./parse-skill.ts";
import { scanLayers, type LayerScan } from "./scan-layer.ts";
import type { SkillSource } from "./types.ts";
import { parseToolsJsonText } from "./tools-json.ts";

/** Scans one layer folder (a missing folder is an empty layer, not a warning). */
async function scanLayer(source: SkillSource, folder: string): Promise<LayerScan> {
  const [scan] = await scanLayers([{ source, folder }]);
  return scan!;
}

const SEED = 0x5eed_2026;
const SKILL_CASES = 5_500;
const TOOLS_CASES = 4_000;
const CATALOG_CASES = 500;
/** A single input taking longer than this counts as a hang. */
const PER_INPUT_LIMIT_MS = 2_000;

/** mulberry32: tiny, fast, and the same sequence on every machine. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const random = prng(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
const integer = (max: number) => Math.floor(random() * max);

const SKILL_SEEDS = [
  "---\nname: review\ndescription: Review code changes.\n---\n\n# Review\n1. Read the diff.\n",
  '---\nname: csv\ndescription: "Profile a CSV: columns, types"\ntools: [profile_csv, read_file]\nmode: isolated\nhistory: none\n---\nProfile $ARGUMENTS.\n',
  "---\nname: x\ndescription: >\n  folded\n  text\nallowed-tools: read_file search_code\nlicense: MIT\nmetadata:\n  owner: team\n---\nBody {{arguments}}\n",
  "---\r\nname: crlf\r\ndescription: d\r\n---\r\nbody\r\n",
  "---\nanchor: &a [1, 2]\nname: alias\ndescription: d\nmore: *a\n---\nbody\n",
  "---\na: &a [x, x, x, x]\nb: &b [*a, *a, *a, *a]\nc: &c [*b, *b, *b, *b]\nd: [*c, *c, *c, *c]\nname: bomb\ndescription: d\n---\nbody\n",
  "# no frontmatter at all\n",
  "---\n---\n",
];

const FRAGMENTS = [
  "---",
  "\n",
  ":",
  ": ",
  "- ",
  "[",
  "]",
  "{",
  "}",
  '"',
  "'",
  "&a",
  "*a",
  "!!str",
  "!!binary",
  "|",
  ">",
  "#",
  "%YAML 1.2",
  "? ",
  "name",
  "description",
  "tools",
  "mode",
  "history",
  "model",
  "isolated",
  "\t",
  "\u0000",
  "\uFEFF",
  "é",
  "🙂",
  "\\",
  "<<: *a",
  "...",
  "\r\n",
  "$ARGUMENTS",
  "null",
  "~",
  "123",
  "true",
];

function mutate(text: string): string {
  let out = text;
  const steps = 1 + integer(4);
  for (let step = 0; step < steps; step++) {
    const at = integer(out.length + 1);
    switch (integer(7)) {
      case 0:
        out = out.slice(0, at) + out.slice(at + 1 + integer(8));
        break;
      case 1:
        out = out.slice(0, at) + pick(FRAGMENTS) + out.slice(at);
        break;
      case 2:
        out = out.slice(0, at);
        break;
      case 3:
        out = out.slice(0, at) + String.fromCharCode(integer(0x3000)) + out.slice(at);
        break;
      case 4: {
        const lines = out.split("\n");
        const index = integer(lines.length);
        lines.splice(integer(lines.length), 0, lines[index]);
        out = lines.join("\n");
        break;
      }
      case 5: {
        const lines = out.split("\n");
        const a = integer(lines.length);
        const b = integer(lines.length);
        [lines[a], lines[b]] = [lines[b], lines[a]];
        out = lines.join("\n");
        break;
      }
      default:
        out = out.slice(0, at) + out.slice(at, at + 1).repeat(integer(50)) + out.slice(at);
    }
  }
  return out;
}

function generatedSkill(): string {
  const keys = [
    "name",
    "description",
    "tools",
    "allowed-tools",
    "mode",
    "history",
    "model",
    "license",
    pick(FRAGMENTS),
  ];
  const values = [
    "x",
    "",
    "''",
    "[a, b]",
    "{a: 1}",
    "shared",
    "isolated",
    "none",
    "- a\n  - b",
    "|\n  block",
    "42",
    pick(FRAGMENTS),
  ];
  const lines = Array.from({ length: integer(7) }, () => `${pick(keys)}: ${pick(values)}`);
  const body = random() < 0.2 ? "" : pick(["Body.", "# Title\n\nSteps $ARGUMENTS", "  \n", pick(FRAGMENTS)]);
  return `---\n${lines.join("\n")}\n---\n${body}`;
}

const TOOLS_SEEDS = [
  JSON.stringify(
    {
      tools: [
        {
          name: "profile_csv",
          description: "Profile.",
          command: ["node", "p.mjs"],
          input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
          timeout_ms: 5000,
        },
      ],
    },
    null,
    2,
  ),
  JSON.stringify({ tools: [] }),
  JSON.stringify({
    tools: [
      { name: "a", description: "d", command: ["./bin/a"] },
      { name: "b", description: "d", command: ["node"] },
    ],
  }),
];

function generatedToolsJson(): string {
  const values: unknown[] = [
    null,
    1,
    -1,
    1e9,
    "",
    "x",
    "../x",
    [],
    ["node"],
    [""],
    {},
    { type: "object" },
    { type: "string" },
    true,
    { type: "object", properties: { a: { type: "nope" } } },
  ];
  const tool: Record<string, unknown> = {};
  for (const key of ["name", "description", "command", "input_schema", "timeout_ms", "extra"]) {
    if (random() < 0.8) tool[key] = pick(values);
  }
  return JSON.stringify(random() < 0.9 ? { tools: [tool] } : pick(values));
}

function expectWellFormedProblem(problem: ParseProblem) {
  expect(typeof problem.reason).toBe("string");
  expect(problem.reason.length).toBeGreaterThan(0);
  if (problem.line !== undefined) expect(Number.isInteger(problem.line) && problem.line >= 1).toBe(true);
  if (problem.column !== undefined)
    expect(Number.isInteger(problem.column) && problem.column >= 1).toBe(true);
}

function timed<T>(run: () => T): T {
  const started = performance.now();
  const value = run();
  const elapsed = performance.now() - started;
  if (elapsed > PER_INPUT_LIMIT_MS) throw new Error(`one input took ${elapsed.toFixed(0)} ms`);
  return value;
}

describe("parser fuzz (seeded)", () => {
  let scratch: string;
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), "skills-fuzz-"));
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it(`SKILL.md: ${SKILL_CASES} inputs parse or yield exactly one problem`, () => {
    let parsed = 0;
    for (let index = 0; index < SKILL_CASES; index++) {
      const input = index % 3 === 0 ? generatedSkill() : mutate(pick(SKILL_SEEDS));
      const result = timed(() => parseSkillMarkdown(input));
      if (result.ok) {
        parsed++;
        expect(result.skill.meta.name.length).toBeGreaterThan(0);
        expect(result.skill.meta.description.length).toBeGreaterThan(0);
        expect(result.skill.body.trim().length).toBeGreaterThan(0);
        expect(Array.isArray(result.skill.meta.tools)).toBe(true);
      } else {
        expectWellFormedProblem(result.problem);
      }
    }
    // The generator must exercise both outcomes, or the fuzz proves nothing.
    expect(parsed).toBeGreaterThan(SKILL_CASES * 0.05);
    expect(parsed).toBeLessThan(SKILL_CASES * 0.95);
  });

  it(`tools.json: ${TOOLS_CASES} inputs parse or yield exactly one problem`, () => {
    let parsed = 0;
    for (let index = 0; index < TOOLS_CASES; index++) {
      const input = index % 2 === 0 ? generatedToolsJson() : mutate(pick(TOOLS_SEEDS));
      const result = timed(() => parseToolsJsonText(input));
      if (result.ok) {
        parsed++;
        for (const tool of result.tools) {
          expect(tool.input_schema.type).toBe("object");
          expect(tool.command.length).toBeGreaterThan(0);
        }
      } else {
        expectWellFormedProblem(result.problem);
      }
    }
    expect(parsed).toBeGreaterThan(0);
    expect(parsed).toBeLessThan(TOOLS_CASES);
  });

  it(`catalog scan: ${CATALOG_CASES} mutated skill folders give one skill or one warning each`, async () => {
    const layer = path.join(scratch, "layer");
    for (let index = 0; index < CATALOG_CASES; index++) {
      const folder = path.join(layer, `case-${String(index).padStart(4, "0")}`);
      await mkdir(folder, { recursive: true });
      // Unique names where the mutation kept them, so duplicates do not hide a missing outcome.
      const markdown = mutate(pick(SKILL_SEEDS)).replace(/^name: .*$/m, `name: case-${index}`);
      await writeFile(path.join(folder, "SKILL.md"), markdown);
      if (random() < 0.3)
        await writeFile(
          path.join(folder, "tools.json"),
          random() < 0.5 ? mutate(pick(TOOLS_SEEDS)) : generatedToolsJson(),
        );
    }
    const scan = await scanLayer("project", layer);
    expect(scan.skills.length + scan.warnings.length).toBe(CATALOG_CASES);
    const folders = [
      ...scan.skills.map((loaded) => loaded.skill.rootDir),
      ...scan.warnings.map((warning) => path.dirname(warning.path)),
    ];
    expect(new Set(folders).size).toBe(CATALOG_CASES);
    for (const warning of scan.warnings) expectWellFormedProblem(warning);
  });
});
