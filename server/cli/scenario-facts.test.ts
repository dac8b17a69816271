// What the demo's scripted model says must be true. Its lines are fixed text, so each class of claim is
// checked here against the real parts: the csv-columns answer reports exactly the counts the skill's
// column-types script prints, and that script agrees with the skill's profile_csv on every column of the
// same file; no line points at the screen (what is "above" depends on what the reader expanded); and a
// line about which tools the model can see comes from the request itself ({{tool_status:NAME}}); and a
// finding about the demo's files is played only where the run read them (a turn's `when`), so on a
// folder of the user's own the same scenario says it has none instead of reporting the demo's.
import { execFile, spawnSync } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { RunnerEvent } from "../protocol/runner-events.ts";
import { playScenario } from "./testing/play-scenario.ts";

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const scenariosDir = path.join(repoRoot, "scenarios");
const skillDir = path.join(repoRoot, "skills", "csv-report");

let root: string;
let workdir: string;
let home: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "scenario-facts-"));
  workdir = path.join(root, "demo");
  home = path.join(root, "home");
  await cp(path.join(repoRoot, "examples", "demo-workdir"), workdir, { recursive: true });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function play(scenario: string, messages: string[]): Promise<RunnerEvent[]> {
  const played = await playScenario({ workdir, home, scenario: path.join(scenariosDir, scenario), messages });
  return played.events;
}

/** `column: 71 integer, 1 text` lines of the column-types script → column → kind → count. */
function scriptCounts(output: string): Map<string, Map<string, number>> {
  const columns = new Map<string, Map<string, number>>();
  for (const line of output.trim().split("\n")) {
    const [name, counts] = line.split(": ");
    columns.set(
      name,
      new Map(counts.split(", ").map((part) => [part.split(" ")[1], Number(part.split(" ")[0])])),
    );
  }
  return columns;
}

/** profile_csv's column table → column → {type, empty}. */
function profileColumns(output: string): Map<string, { type: string; empty: number }> {
  const columns = new Map<string, { type: string; empty: number }>();
  for (const line of output.split("\n")) {
    const cells = /^\| (.+?) \| (\w+) \| (\d+) \| \d+ \|/.exec(line);
    if (cells) columns.set(cells[1], { type: cells[2], empty: Number(cells[3]) });
  }
  return columns;
}

/** Which of the script's cell kinds each profile_csv type allows (empty cells aside). */
const KINDS_OF_TYPE: Record<string, string[]> = {
  integer: ["integer"],
  number: ["integer", "decimal"],
  boolean: ["flag"],
  date: ["date"],
  empty: [],
};

/** `N kind` pairs a line of prose states (plurals allowed): "72 integers, 1 text cell" → kind → N. */
function statedCounts(line: string): Map<string, number> {
  const kinds = "id-with-leading-zeros|integer|decimal|currency|percentage|date|flag|text|empty";
  const pairs = line.matchAll(new RegExp(String.raw`(\d+) (${kinds})s?\b`, "g"));
  return new Map([...pairs].map((pair) => [pair[2], Number(pair[1])]));
}

describe("the csv-columns scenario", () => {
  it("reports the column-types script's counts, and the script agrees with profile_csv on the same file", async () => {
    const events = await play("csv-columns.yaml", ["check the column types"]);
    const activated = events.find((event) => event.type === "skill_activated");
    const file = activated?.type === "skill_activated" ? activated.arguments : undefined;
    expect(file).toMatch(/\.csv$/);

    const script = await run("node", [path.join(skillDir, "scripts", "column-types.mjs"), file!], {
      cwd: workdir,
    });
    const counted = scriptCounts(script.stdout);
    // profile_csv reads its input on stdin, as the playground runs it.
    const profile = spawnSync(process.execPath, [path.join(skillDir, "profile-csv.mjs")], {
      cwd: workdir,
      input: JSON.stringify({ path: file }),
      env: { ...process.env, PSEUDOCLAUDE_WORKDIR: workdir },
      encoding: "utf8",
    });
    expect(profile.status, profile.stderr).toBe(0);
    const columns = profileColumns(profile.stdout);
    expect([...counted.keys()]).toEqual([...columns.keys()]);

    const disagreements: string[] = [];
    for (const [name, kinds] of counted) {
      const { type, empty } = columns.get(name)!;
      if ((kinds.get("empty") ?? 0) !== empty)
        disagreements.push(`${name}: script counts ${kinds.get("empty") ?? 0} empty, profile_csv ${empty}`);
      const present = [...kinds.keys()].filter((kind) => kind !== "empty");
      const allowed = KINDS_OF_TYPE[type];
      if (allowed && present.some((kind) => !allowed.includes(kind)))
        disagreements.push(`${name}: profile_csv says ${type}, the script counts ${present.join(", ")}`);
      // A text column that the script finds all numeric would be a parsing disagreement too.
      if (type === "text" && present.length === 1 && ["integer", "decimal", "date"].includes(present[0]))
        disagreements.push(`${name}: profile_csv says text, the script counts only ${present[0]}`);
    }
    expect(disagreements).toEqual([]);

    // The answer: one line per column, stating exactly the script's counts.
    const answer = events.findLast(
      (event) => event.type === "history_appended" && event.message.role === "assistant",
    );
    const text = answer?.type === "history_appended" ? answer.message.content : "";
    for (const [name, kinds] of counted) {
      const line = text.split("\n").find((candidate) => candidate.includes(`\`${name}\``));
      expect(line, `the answer has no line for ${name}`).toBeDefined();
      expect(Object.fromEntries(statedCounts(line!)), line).toEqual(Object.fromEntries(kinds));
    }
  });
});

describe("scripted lines", async () => {
  const files = (await readdir(scenariosDir)).filter((file) => file.endsWith(".yaml"));
  const texts = await Promise.all(
    files.map(async (file) => {
      const scenario = parse(await readFile(path.join(scenariosDir, file), "utf8")) as {
        turns: { text?: string }[];
      };
      return scenario.turns.map((turn, index) => ({
        where: `${file} turn ${index + 1}`,
        text: turn.text ?? "",
      }));
    }),
  );

  it("never point at the screen (above, below): what shows there depends on what the reader opened", () => {
    const pointing = texts.flat().filter((turn) => /\b(above|below)\b/i.test(turn.text));
    expect(pointing.map((turn) => `${turn.where}: ${turn.text}`)).toEqual([]);
  });

  it("say which tools the model can see only through {{tool_status:NAME}}, filled from the request", () => {
    const claims = texts
      .flat()
      .filter((turn) => /\bvisible\b|tool list/i.test(turn.text.replace(/\{\{tool_status:[\w-]+\}\}/g, "")));
    expect(claims.map((turn) => `${turn.where}: ${turn.text}`)).toEqual([]);
  });
});

/** The last thing the model said in a scenario played on `folder`. */
async function finalAnswer(folder: string, scenario: string, message: string): Promise<string> {
  const played = await playScenario({
    workdir: folder,
    home,
    scenario: path.join(scenariosDir, scenario),
    messages: [message],
  });
  expect(played.code, played.stderr).toBe(0);
  const answer = played.events.findLast(
    (event) => event.type === "history_appended" && event.message.role === "assistant",
  );
  return answer?.type === "history_appended" ? answer.message.content : "";
}

describe("the demo's findings", () => {
  let other: string;
  beforeAll(async () => {
    // A project of the user's own: code with a TODO, but none of the demo's files.
    other = path.join(root, "other");
    await mkdir(path.join(other, "src"), { recursive: true });
    await writeFile(path.join(other, "src", "app.js"), "// TODO: handle errors\nexport const total = 1;\n");
  });

  it.each([
    ["review.yaml", "review src/orders.js", "### [major] Rounding loses cents", "No findings"],
    ["todo-triage.yaml", "list the TODOs", "**TODO triage (src/)**", "No triage"],
  ])(
    "%s reports them on the demo, and says it has none on another folder",
    async (file, message, finding, none) => {
      expect(await finalAnswer(workdir, file, message)).toContain(finding);
      const elsewhere = await finalAnswer(other, file, message);
      expect(elsewhere).not.toContain(finding);
      expect(elsewhere).not.toMatch(/src\/orders\.js:\d/);
      expect(elsewhere).toContain(none);
    },
  );

  it("default.yaml offers the demo's tasks as the demo project's, not as things to try on any folder", async () => {
    // The fallback answer reads no file, so no `when` can tell the folders apart: its wording must hold
    // in both (the empty chat offers these tasks only on the demo copy: app/components/chat-panel.tsx).
    const answer = await finalAnswer(other, "default.yaml", "hello");
    const suggestions = answer.indexOf('"review src/orders.js"');
    expect(suggestions).toBeGreaterThan(0);
    expect(answer.slice(0, suggestions)).toContain("demo project");
  });

  it("commit.yaml proposes no message for a change its command did not show", async () => {
    const answer = await finalAnswer(other, "commit.yaml", "commit my changes");
    expect(answer).not.toContain("fix(orders)");
    expect(answer).toContain("I have no commit message to propose");
  });
});
