// "Why isn't it offered?": every skill found on disk but not in the model's index, one sentence each;
// and Claude Code's invocation keys (disable-model-invocation, user-invocable, when_to_use).
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildStableSystem } from "../prompt/stable-system.ts";
import { withBudgetNotOffered } from "../prompt/not-offered.ts";
import { Registry } from "../tools/registry.ts";
import { ActiveSkills } from "./active-skills.ts";
import { Catalog } from "./catalog.ts";
import { createLoadSkillTool, runLoadSkill } from "./load-skill-tool.ts";
import { tempLayersPerTest, WHEN_TO_USE, skillMarkdown, writeSkill } from "./testing/skill-fixtures.ts";

const layers = tempLayersPerTest();
const WHEN = WHEN_TO_USE;
const plain = (name: string, extra: Record<string, string> = {}) =>
  skillMarkdown({ name, description: `The ${name} skill. ${WHEN}`, ...extra });

describe("not offered to the model", () => {
  it("lists every reason in one place: unreadable, shadowed, refused, removed, disabled, left out by the budget", async () => {
    await writeSkill(
      layers.current.layers.builtin,
      "broken",
      "---\nname: broken\ndescription: d\nmode: solo\n---\nbody\n",
    );
    await writeSkill(layers.current.layers.builtin, "review", plain("review"));
    await writeSkill(layers.current.layers.project, "review", plain("review"));
    await writeSkill(
      layers.current.layers.user,
      "needs-mcp",
      plain("needs-mcp", { tools: "[mcp__files__read]" }),
    );
    await writeSkill(
      layers.current.layers.user,
      "deploy",
      plain("deploy", { "disable-model-invocation": "true" }),
    );
    await writeSkill(layers.current.layers.project, "anthropic-tips", plain("anthropic-tips"));
    for (const name of ["alpha", "beta", "gamma"])
      await writeSkill(layers.current.layers.builtin, name, plain(name));
    const catalog = await Catalog.create(layers.current.layers, { profile: "claude-code" });
    catalog.validateTools(
      (name) => name === "read_file",
      (name) => (name.startsWith("mcp__files__") ? "MCP server files is not connected" : undefined),
    );
    // A listing budget so small that codex's rules leave skills out of the index entirely.
    const snapshot = withBudgetNotOffered(catalog.snapshot(), catalog, {
      profile: "codex",
      contextWindow: 200,
    });
    const byKind = (kind: string) =>
      (snapshot.notOffered ?? []).filter((entry) => entry.kind === kind).map((entry) => entry.name);
    expect(byKind("unreadable")).toEqual(["broken"]);
    expect(byKind("shadowed")).toEqual(["review"]);
    expect(byKind("refused")).toEqual(["anthropic-tips"]);
    expect(byKind("removed")).toEqual(["needs-mcp"]);
    expect(byKind("disabled")).toEqual(["deploy"]);
    expect(byKind("budget").length).toBeGreaterThan(0);
    const reason = (name: string, kind: string) =>
      snapshot.notOffered!.find((entry) => entry.name === name && entry.kind === kind)!.reason;
    expect(reason("broken", "unreadable")).toMatch(/line 4.*"mode" must be one of shared, isolated/);
    expect(reason("review", "shadowed")).toContain(`shadowed by the project layer's "review"`);
    expect(reason("needs-mcp", "removed")).toBe(
      'removed: its "tools" key names mcp__files__read as needed, and MCP server files is not connected',
    );
    expect(reason("deploy", "disabled")).toContain("the user can still run /deploy");
    expect(reason("anthropic-tips", "refused")).toMatch(
      /^refused by the claude-code lint profile: name contains "anthropic"/,
    );
    expect(snapshot.notOffered!.find((entry) => entry.kind === "budget")!.reason).toMatch(
      /^left out of the index by the codex listing budget \(2% of 200 tokens/,
    );
    // Exactly the skills the index leaves out, and every path is the file on disk.
    for (const entry of snapshot.notOffered!) expect(path.isAbsolute(entry.path)).toBe(true);
    const listed = new Set(catalog.promptItems().map((item) => item.name));
    for (const entry of snapshot.notOffered!) {
      if (entry.kind !== "shadowed" && entry.kind !== "budget") expect(listed.has(entry.name)).toBe(false);
    }
  });
});

describe("Claude Code's invocation keys", () => {
  async function setup() {
    await writeSkill(
      layers.current.layers.builtin,
      "deploy",
      plain("deploy", { "disable-model-invocation": "true" }),
    );
    await writeSkill(
      layers.current.layers.builtin,
      "background",
      plain("background", { "user-invocable": "false" }),
    );
    await writeSkill(
      layers.current.layers.builtin,
      "triage",
      skillMarkdown({
        name: "triage",
        description: "Sorts incoming bug reports by severity.",
        when_to_use: "When a new issue arrives or the user asks what to fix first.",
      }),
    );
    const catalog = await Catalog.create(layers.current.layers);
    const registry = new Registry();
    const activeSkills = new ActiveSkills();
    registry.register(createLoadSkillTool({ catalog, activeSkills, registry }), { protected: true });
    return { catalog, registry, activeSkills };
  }

  const context = (callId: string) => ({
    workdir: layers.current.root,
    callId,
    signal: new AbortController().signal,
  });

  it("disable-model-invocation keeps a skill out of the index and load_skill; a person may still load it", async () => {
    const { catalog, registry, activeSkills } = await setup();
    expect(catalog.promptItems().map((item) => item.name)).toEqual(["background", "triage"]);
    const stable = buildStableSystem({ skills: catalog.promptItems(), disclosure: "progressive" });
    expect(stable).not.toContain("- deploy:");
    // The model's call (through the Registry, as the Runner makes it) is refused with the reason.
    const prepared = registry.prepare("load_skill", { name: "deploy" });
    if (!prepared.ok) throw new Error(prepared.result.content);
    const byModel = (await prepared.call.execute(context("call_1"))).result;
    expect(byModel).toMatchObject({ ok: false, errorType: "unknown_skill" });
    expect(byModel.content).toContain("only the user can run it, as /deploy");
    // The trigger lab's probes stand in for the model: refused too.
    expect((await runLoadSkill(registry, { name: "deploy" }, context("probe"), "model")).ok).toBe(false);
    // A slash command (a person) loads it.
    expect((await runLoadSkill(registry, { name: "deploy" }, context("slash_1"))).ok).toBe(true);
    expect(activeSkills.names()).toEqual(["deploy"]);
  });

  it("user-invocable: false and when_to_use reach the snapshot; when_to_use joins the index line", async () => {
    const { catalog } = await setup();
    const views = new Map(catalog.snapshot().skills.map((skill) => [skill.name, skill]));
    expect(views.get("background")!.invocation).toEqual({ model: true, user: false });
    expect(views.get("deploy")!.invocation).toEqual({ model: false, user: true });
    expect(views.get("triage")!.whenToUse).toBe(
      "When a new issue arrives or the user asks what to fix first.",
    );
    const stable = buildStableSystem({ skills: catalog.promptItems(), disclosure: "progressive" });
    expect(stable).toContain(
      "- triage: Sorts incoming bug reports by severity. When a new issue arrives or the user asks what to fix first.",
    );
    // The when_to_use says when: no description-no-when note.
    expect(catalog.lint().filter((note) => note.skill === "triage")).toEqual([]);
  });
});
