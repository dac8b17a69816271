// Every scenario in scenarios/ plays to a completed stop on the demo workdir (`cli run` in-process).
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { Catalog, defaultLayers } from "../skills/catalog.ts";
import { playScenario } from "./testing/play-scenario.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const scenariosDir = path.join(repoRoot, "scenarios");
const demo = path.join(repoRoot, "examples", "demo-workdir");
/** slow-tool is for the Stop test (cli.test.ts); csv-profile-next-run spans two messages. */
const SKIPPED = new Set(["slow-tool.yaml"]);
/** The fallback, and the MCP demo (its tools come from the demo's MCP server, not from a skill). */
const WITHOUT_SKILL = new Set(["default.yaml", "mcp-tickets.yaml"]);
const MESSAGES: Record<string, string[]> = {
  "csv-profile-next-run.yaml": ["load the csv skill", "now profile data/sales.csv"],
};

let home: string;
beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), "scenarios-test-home-"));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("scenarios/ on examples/demo-workdir", async () => {
  const files = (await readdir(scenariosDir)).filter((file) => file.endsWith(".yaml") && !SKIPPED.has(file));

  it.each(files)(
    "%s ends every run with a completed stop, with no unknown tool or bad arguments",
    async (file) => {
      const { outcomes, events, code, stderr } = await playScenario({
        workdir: demo,
        home,
        scenario: path.join(scenariosDir, file),
        messages: MESSAGES[file] ?? [],
      });
      expect(code, stderr).toBe(0);
      expect(outcomes.length).toBeGreaterThan(0);
      expect(outcomes.map((outcome) => outcome.reason)).toEqual(outcomes.map(() => "completed"));
      const failures = events.flatMap((event) =>
        event.type === "tool_result" && !event.result.ok ? [event.result.errorType] : [],
      );
      expect(failures.filter((type) => type !== "command_failed")).toEqual([]);
      // Every scenario but these demonstrates a skill: load_skill first.
      const activated = events.filter((event) => event.type === "skill_activated");
      if (!WITHOUT_SKILL.has(file)) expect(activated.length).toBeGreaterThan(0);
    },
  );
});

describe("scenarios/ follow their skills", () => {
  it("after load_skill, every call is to a tool in that skill's tools list or its own tools.json", async () => {
    const catalog = await Catalog.create(defaultLayers(demo, home));
    const files = (await readdir(scenariosDir)).filter((file) => file.endsWith(".yaml"));
    const offList: string[] = [];
    for (const file of files) {
      const scenario = parse(await readFile(path.join(scenariosDir, file), "utf8")) as {
        turns: { tool_calls?: { name: string; input: { name?: string } }[] }[];
      };
      let skill: string | undefined;
      let allowed = new Set<string>();
      for (const call of scenario.turns.flatMap((turn) => turn.tool_calls ?? [])) {
        if (call.name === "load_skill") {
          const loaded = catalog.get(String(call.input.name));
          expect(loaded, `${file}: load_skill ${call.input.name}`).toBeDefined();
          skill = loaded!.meta.name;
          allowed = new Set([...loaded!.meta.tools, ...loaded!.tools.map((tool) => tool.name)]);
        } else if (skill && allowed.size > 0 && !allowed.has(call.name)) {
          offList.push(`${file}: ${skill} does not list ${call.name}`);
        }
      }
    }
    expect(offList).toEqual([]);
  });
});
