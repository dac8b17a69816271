// Writes a synthetic skill library into a temp dir: N SKILL.md files spread over the three layers
// (builtin 50 %, user 30 %, project 20 %), some with tools.json, some names defined again in a later
// layer (shadowed). Deterministic (seeded), so token counts are the same on every run and machine.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

export interface CatalogShape {
  /** SKILL.md files written in total, over all layers (shadowed copies included). */
  skills: number;
  /** How many of them ship a tools.json. */
  withTools: number;
  /** How many names are defined twice: once in builtin and again in user or project. */
  shadowed: number;
  seed?: number;
}

export interface GeneratedSkillFile {
  name: string;
  description: string;
  layer: "builtin" | "user" | "project";
  entryPath: string;
  toolsPath?: string;
}

export interface GeneratedCatalog {
  root: string;
  layers: { builtin: string; user: string; project: string };
  /** The workdir whose `.PseudoClaude/skills` is the project layer. */
  workdir: string;
  /** The user's home whose `.PseudoClaude/skills` is the user layer. */
  home: string;
  files: GeneratedSkillFile[];
  /** Every file the catalog reads (SKILL.md and tools.json), in scan order: the readFile baseline. */
  readPaths: string[];
  /** Distinct skill names (what the catalog should list when nothing is removed). */
  names: string[];
  cleanup(): Promise<void>;
}

const VERBS = [
  "review",
  "summarize",
  "migrate",
  "audit",
  "refactor",
  "document",
  "benchmark",
  "triage",
  "translate",
  "deploy",
  "profile",
  "lint",
  "package",
  "release",
  "test",
];
const NOUNS = [
  "changelog",
  "schema",
  "api",
  "dockerfile",
  "invoice",
  "dataset",
  "pull-request",
  "config",
  "spreadsheet",
  "report",
  "terraform",
  "notebook",
  "log",
  "query",
  "component",
];
const CONTEXTS = [
  "before a release",
  "for a new teammate",
  "in a monorepo",
  "with strict budgets",
  "when tests are flaky",
  "for compliance",
  "on a legacy codebase",
  "after an incident",
];

/** Small seeded PRNG (mulberry32): the same seed gives the same library everywhere. */
function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

export function skillName(index: number, random: () => number): string {
  return `${pick(random, VERBS)}-${pick(random, NOUNS)}-${String(index).padStart(4, "0")}`;
}

function description(name: string, random: () => number): string {
  const [verb, ...rest] = name.split("-");
  const noun = rest.slice(0, -1).join(" ");
  const sentences = [
    `Use when the user asks to ${verb} a ${noun} ${pick(random, CONTEXTS)}.`,
    `Walks through a checklist, names every finding with its file and line, and proposes the smallest fix.`,
    `Prefer it over ad-hoc answers when the ${noun} is longer than a page.`,
  ];
  return sentences.slice(0, 1 + Math.floor(random() * sentences.length)).join(" ");
}

function body(name: string, random: () => number): string {
  const steps = 6 + Math.floor(random() * 10);
  const lines = [
    `# ${name}`,
    "",
    "Follow these steps in order. Stop and ask when an input is ambiguous.",
    "",
  ];
  for (let step = 1; step <= steps; step++) {
    lines.push(
      `${step}. ${pick(random, VERBS)} the ${pick(random, NOUNS)} ${pick(random, CONTEXTS)}; record what you changed and why.`,
    );
  }
  lines.push("", "## Output", "", "A short summary, then one bullet per finding:", "", "```text");
  lines.push("- <file>:<line> <what is wrong> -> <the smallest fix>", "```", "", "Arguments: $ARGUMENTS", "");
  return lines.join("\n");
}

function toolName(name: string): string {
  return `${name.replace(/-/g, "_")}_run`;
}

function skillMarkdown(name: string, text: string, withTools: boolean, random: () => number): string {
  const frontmatter = [`name: ${name}`, `description: ${JSON.stringify(text)}`];
  if (withTools) frontmatter.push(`tools: [${toolName(name)}]`);
  if (random() < 0.3)
    frontmatter.push(
      "license: MIT",
      "metadata:",
      "  author: bench",
      `  version: "1.${Math.floor(random() * 9)}"`,
    );
  return `---\n${frontmatter.join("\n")}\n---\n${body(name, random)}`;
}

function toolsJson(name: string): string {
  return JSON.stringify(
    {
      tools: [
        {
          name: toolName(name),
          description: `Runs the ${name} checks and prints findings as JSON lines.`,
          input_schema: {
            type: "object",
            properties: { path: { type: "string" }, strict: { type: "boolean" } },
            required: ["path"],
          },
          command: ["node", "run.mjs"],
          timeout_ms: 10_000,
        },
      ],
    },
    null,
    2,
  );
}

export interface PlannedSkill {
  name: string;
  description: string;
  layer: GeneratedSkillFile["layer"];
  withTools: boolean;
}

/** Plans which name goes to which layer, without touching the disk (also used by tests). */
export function planCatalog(shape: CatalogShape): PlannedSkill[] {
  const random = randomSource(shape.seed ?? 7);
  const distinct = shape.skills - shape.shadowed;
  if (distinct <= 0 || shape.shadowed > distinct)
    throw new Error(`cannot shadow ${shape.shadowed} of ${shape.skills} skills`);
  const builtinCount = Math.round(distinct * 0.5);
  const userCount = Math.round(distinct * 0.3);
  const plan: PlannedSkill[] = [];
  for (let index = 0; index < distinct; index++) {
    const name = skillName(index, random);
    const layer = index < builtinCount ? "builtin" : index < builtinCount + userCount ? "user" : "project";
    plan.push({ name, description: description(name, random), layer, withTools: false });
  }
  // Shadowed names: the first builtin skills, defined again in user (even) or project (odd).
  for (let index = 0; index < shape.shadowed; index++) {
    const original = plan[index];
    const layer = index % 2 === 0 ? "user" : "project";
    plan.push({
      name: original.name,
      description: description(original.name, random),
      layer,
      withTools: false,
    });
  }
  // tools.json spread evenly over the whole plan, so every layer has some.
  for (const [index, planned] of plan.entries()) {
    planned.withTools =
      Math.floor((index * shape.withTools) / plan.length) !==
      Math.floor(((index + 1) * shape.withTools) / plan.length);
  }
  return plan;
}

export async function generateCatalog(shape: CatalogShape): Promise<GeneratedCatalog> {
  const random = randomSource((shape.seed ?? 7) + 1);
  const root = await mkdtemp(path.join(os.tmpdir(), "pc-bench-catalog-"));
  const home = path.join(root, "home");
  const workdir = path.join(root, "workdir");
  const layers = {
    builtin: path.join(root, "builtin-skills"),
    user: path.join(home, ".PseudoClaude", "skills"),
    project: path.join(workdir, ".PseudoClaude", "skills"),
  };
  for (const folder of Object.values(layers)) await mkdir(folder, { recursive: true });

  const plan = planCatalog(shape);
  const files: GeneratedSkillFile[] = [];
  for (const planned of plan) {
    const { withTools, ...identity } = planned;
    const folder = path.join(layers[planned.layer], planned.name);
    await mkdir(folder, { recursive: true });
    const entryPath = path.join(folder, "SKILL.md");
    await writeFile(entryPath, skillMarkdown(planned.name, planned.description, withTools, random));
    const file: GeneratedSkillFile = { ...identity, entryPath };
    if (withTools) {
      file.toolsPath = path.join(folder, "tools.json");
      await writeFile(file.toolsPath, toolsJson(planned.name));
    }
    files.push(file);
  }

  const layerOrder = ["builtin", "user", "project"] as const;
  const readPaths = layerOrder.flatMap((layer) =>
    files
      .filter((file) => file.layer === layer)
      .sort((left, right) => (left.name < right.name ? -1 : 1))
      .flatMap((file) => (file.toolsPath ? [file.entryPath, file.toolsPath] : [file.entryPath])),
  );
  return {
    root,
    layers,
    workdir,
    home,
    files,
    readPaths,
    names: [...new Set(plan.map((planned) => planned.name))],
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
