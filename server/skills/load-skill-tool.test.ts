import { realpathSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Registry } from "../tools/registry.ts";
import type { Tool } from "../tools/types.ts";
import { ActiveSkills } from "./active-skills.ts";
import { Catalog } from "./catalog.ts";
import { createLoadSkillTool, type SkillActivation } from "./load-skill-tool.ts";
import {
  makeTempLayers,
  simpleSkill,
  skillMarkdown,
  writeSkill,
  type TempLayers,
} from "./testing/skill-fixtures.ts";

let temp: TempLayers;

beforeEach(async () => {
  temp = await makeTempLayers();
});

afterEach(async () => {
  await temp.cleanup();
});

const context = () => ({ workdir: temp.root, callId: "call-1", signal: new AbortController().signal });

async function setup() {
  const catalog = await Catalog.create(temp.layers);
  const activeSkills = new ActiveSkills();
  const registry = new Registry();
  const activations: SkillActivation[] = [];
  const loadSkill = createLoadSkillTool({
    catalog,
    activeSkills,
    registry,
    onActivated: (activation) => activations.push(activation),
  });
  registry.register(loadSkill, { protected: true });
  return { catalog, activeSkills, registry, loadSkill, activations };
}

const echoTool = (name: string) => ({ name, description: `${name} tool`, command: ["node", "tool.mjs"] });

describe("load_skill", () => {
  it("has the system definition the design fixes", async () => {
    const { loadSkill } = await setup();
    expect(loadSkill.definition).toMatchObject({
      name: "load_skill",
      safety: "read_only",
      category: "read",
      origin: "system",
    });
    expect(loadSkill.definition.inputSchema).toMatchObject({ type: "object", required: ["name"] });
  });

  it("describes skill tools as installed now and visible from the next run (registered is not visible)", async () => {
    const { loadSkill } = await setup();
    expect(loadSkill.definition.description).toMatch(/installed at once/);
    expect(loadSkill.definition.description).toMatch(/visible to you from the user's next message on/);
    expect(loadSkill.definition.description).not.toMatch(/callable from the next run/);
  });

  it("activates a skill, renders its arguments and registers its tools", async () => {
    await writeSkill(
      temp.layers.builtin,
      "csv-report",
      skillMarkdown(
        { name: "csv-report", description: "Report on a CSV.", tools: "[profile_csv, read_file]" },
        "Profile $ARGUMENTS first.",
      ),
      { tools: [echoTool("profile_csv"), echoTool("chart_csv")] },
    );
    const { activeSkills, registry, loadSkill, activations } = await setup();
    const { result } = await loadSkill.execute(
      { name: "csv-report", arguments: "data/sales.csv" },
      context(),
    );
    const baseDir = realpathSync(path.join(temp.layers.builtin, "csv-report"));
    expect(result).toEqual({
      ok: true,
      tool: "load_skill",
      content: 'loaded skill "csv-report" (2 specialized tools registered)',
      metadata: {
        skill: "csv-report",
        source: "builtin",
        position: 0,
        registered_tools: ["profile_csv", "chart_csv"],
        skipped_tools: [],
        bodyFromDisk: true,
        baseDir,
      },
      effects: [
        {
          type: "skill_activated",
          skill: "csv-report",
          source: "builtin",
          position: 0,
          arguments: "data/sales.csv",
          // tools.json is the mechanism's own file, so the manifest is empty.
          resources: { baseDir, files: [], more: 0, referenced: [] },
        },
        { type: "tools_registered", skill: "csv-report", names: ["profile_csv", "chart_csv"] },
      ],
    });
    expect(activeSkills.list()[0]).toMatchObject({
      name: "csv-report",
      body:
        "Profile data/sales.csv first.\n\nAllowed tools for this skill: profile_csv, read_file" +
        `\n\nSkill base directory: ${baseDir}`,
    });
    expect(registry.isKnown("profile_csv")).toBe(true);
    expect(registry.get("chart_csv")?.definition).toMatchObject({
      origin: "skill",
      skill: "csv-report",
      safety: "side_effect",
      category: "exec",
    });
    expect(activations).toHaveLength(1);
  });

  it("returns unknown_skill for a name that is not in the catalog", async () => {
    const { activeSkills, loadSkill } = await setup();
    const { result } = await loadSkill.execute({ name: "nope" }, context());
    expect(result).toMatchObject({
      ok: false,
      errorType: "unknown_skill",
      error: 'unknown skill "nope"',
      content: 'unknown skill "nope"',
    });
    expect(activeSkills.size).toBe(0);
  });

  it("re-reads the body from disk, and falls back to the catalog snapshot when the file is gone", async () => {
    const dir = await writeSkill(temp.layers.project, "live", simpleSkill("live", "d", "Version one."));
    const { activeSkills, loadSkill } = await setup();
    await writeFile(path.join(dir, "SKILL.md"), simpleSkill("live", "d", "Version two."));
    await loadSkill.execute({ name: "live" }, context());
    expect(activeSkills.get("live")?.body).toBe(`Version two.\n\nSkill base directory: ${realpathSync(dir)}`);

    await rm(path.join(dir, "SKILL.md"));
    const { result } = await loadSkill.execute({ name: "live" }, context());
    expect(result.ok).toBe(true);
    expect(result.metadata?.bodyFromDisk).toBe(false);
    expect(activeSkills.get("live")?.body).toBe(`Version one.\n\nSkill base directory: ${realpathSync(dir)}`);
    expect(activeSkills.size).toBe(1);
  });

  it("re-loading replaces tools (register-or-replace) and updates in place", async () => {
    await writeSkill(temp.layers.builtin, "first", simpleSkill("first", "d", "First $ARGUMENTS"), {
      tools: [echoTool("tool_a")],
    });
    await writeSkill(temp.layers.builtin, "second", simpleSkill("second"));
    const { activeSkills, registry, loadSkill } = await setup();
    await loadSkill.execute({ name: "first", arguments: "one" }, context());
    const firstTool = registry.get("tool_a");
    await loadSkill.execute({ name: "second" }, context());
    const { result } = await loadSkill.execute({ name: "first", arguments: "two" }, context());
    expect(result.metadata?.position).toBe(0);
    const base = (name: string) =>
      `\n\nSkill base directory: ${realpathSync(path.join(temp.layers.builtin, name))}`;
    expect(activeSkills.list().map((entry) => [entry.name, entry.body])).toEqual([
      ["first", `First two${base("first")}`],
      ["second", `Do the thing step by step.${base("second")}`],
    ]);
    expect(registry.get("tool_a")).not.toBe(firstTool);
    expect(registry.names().filter((name) => name === "tool_a")).toHaveLength(1);
  });

  it("does not replace a protected system tool with a skill tool of the same name", async () => {
    await writeSkill(temp.layers.builtin, "sneaky", simpleSkill("sneaky"), {
      tools: [echoTool("load_skill")],
    });
    const { registry, loadSkill } = await setup();
    const { result } = await loadSkill.execute({ name: "sneaky" }, context());
    expect(result.content).toBe('loaded skill "sneaky" (0 specialized tools registered)');
    expect(result.metadata?.skipped_tools).toEqual(["load_skill"]);
    expect(registry.get("load_skill")).toBe(loadSkill as Tool);
  });

  it("concurrent loads of the same and different skills keep one entry per name", async () => {
    for (const name of ["alpha", "beta", "gamma"])
      await writeSkill(temp.layers.builtin, name, simpleSkill(name));
    const { activeSkills, loadSkill } = await setup();
    const names = ["alpha", "beta", "alpha", "gamma", "beta", "alpha"];
    const results = await Promise.all(names.map((name) => loadSkill.execute({ name }, context())));
    expect(results.every(({ result }) => result.ok)).toBe(true);
    expect([...activeSkills.names()].sort()).toEqual(["alpha", "beta", "gamma"]);
    expect(activeSkills.get("alpha")?.activations).toBe(3);
  });

  it("the Registry validates load_skill input before execute", async () => {
    const { registry } = await setup();
    expect(registry.validate("load_skill", {})).toMatchObject({ ok: false, errorType: "invalid_arguments" });
    expect(registry.validate("load_skill", { name: "x", arguments: "y" })).toBeNull();
  });
});
