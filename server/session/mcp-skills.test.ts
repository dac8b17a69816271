// Skills over MCP (SEP-2640) end to end in a workspace: a real MCP server written with the official SDK
// (server/mcp/testing/skills-server.mjs), started from the user's settings over stdio under real
// bubblewrap, serves skills — clean ones, tampered digests, a file set that changes, a name that is not
// its URI's, a frontmatter that differs, dynamic files, malformed entries, one over the 512-file limit
// and one colliding with a project skill. The catalog lists them as `mcp:<server>`; loading fetches the
// SKILL.md then and each file on read, and every read passes or fails verification as the SEP says.
import { createHash } from "node:crypto";
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogReport } from "../cli/catalog-command.ts";
import { PermissionEngine } from "../permission/engine.ts";
import { parseRule } from "../permission/rules.ts";
import { buildEnvironment } from "../prompt/environment.ts";
import type { PermissionCheck } from "../permission/types.ts";
import type { SkillView } from "../protocol/catalog.ts";
import { skillAllowRules } from "./skill-allows.ts";
import { createWorkspace, type Workspace } from "./workspace.ts";

const SERVER = fileURLToPath(new URL("../mcp/testing/skills-server.mjs", import.meta.url));

function skillMd(name: string, description: string, body: string, extra = ""): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}\n`;
}

let root: string;
let home: string;
let workdir: string;
let skillsRoot: string;
let overridesFile: string;
let workspace: Workspace;

async function put(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

async function readTool(file: string) {
  const prepared = workspace.registry.prepare("read_file", { path: file });
  if (!prepared.ok) throw new Error(prepared.result.error);
  const context = {
    workdir: workspace.workdir,
    callId: `read_${Math.random()}`,
    signal: new AbortController().signal,
    sandbox: { network: false, homes: [home] },
  };
  return (await prepared.call.execute(context)).result;
}

function view(name: string): SkillView | undefined {
  return workspace.catalog.snapshot().skills.find((skill) => skill.name === name);
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "pc-mcp-skills-"));
  home = path.join(root, "home");
  workdir = path.join(root, "work");
  skillsRoot = path.join(root, "served");
  overridesFile = path.join(root, "overrides.json");
  await put(
    path.join(workdir, ".PseudoClaude", "skills", "review", "SKILL.md"),
    skillMd("review", "Review code against the project's rules.", "# Project review"),
  );
  await put(
    path.join(skillsRoot, "pdf-tools", "SKILL.md"),
    skillMd(
      "pdf-tools",
      "Fill PDF forms. Use when the user asks for a PDF form.",
      "# PDF tools\nRead reference/forms.md before filling a form.",
      "allowed-tools: Bash(rm:*)\n",
    ),
  );
  await put(
    path.join(skillsRoot, "pdf-tools", "reference", "forms.md"),
    "# Forms\nField names are case-sensitive.\n",
  );
  await put(
    path.join(skillsRoot, "review", "SKILL.md"),
    skillMd("review", "The server's review.", "# Server review"),
  );
  await put(
    path.join(skillsRoot, "tampered", "SKILL.md"),
    skillMd("tampered", "Listed with a wrong digest.", "Read ref.md."),
  );
  await put(path.join(skillsRoot, "tampered", "ref.md"), "the real reference\n");
  await put(
    path.join(skillsRoot, "swapped", "SKILL.md"),
    skillMd("swapped", "Served other bytes than listed.", "Original."),
  );
  await put(
    path.join(skillsRoot, "fm-differs", "SKILL.md"),
    skillMd("fm-differs", "What the file says.", "Body."),
  );
  await put(
    path.join(skillsRoot, "generated", "SKILL.md"),
    skillMd("generated", "Generated on demand.", "Dynamic body."),
  );
  await put(
    path.join(skillsRoot, "mismatch", "SKILL.md"),
    skillMd("mismatch", "Listed under another name.", "Body."),
  );
  await put(
    path.join(skillsRoot, "broken", "SKILL.md"),
    skillMd("broken", "Resources are not a list.", "Body."),
  );
  await put(path.join(skillsRoot, "huge", "SKILL.md"), skillMd("huge", "Lists 513 files.", "Body."));
  await put(path.join(skillsRoot, "changing", "SKILL.md"), skillMd("changing", "Gains a file.", "Body."));
  const digest = `sha256:${"a".repeat(64)}`;
  await writeFile(
    overridesFile,
    JSON.stringify({
      tampered: {
        digests: { "ref.md": `sha256:${createHash("sha256").update("something else").digest("hex")}` },
      },
      swapped: {
        serve: {
          "SKILL.md": skillMd("swapped", "Served other bytes than listed.", "INJECTED instructions."),
        },
      },
      "fm-differs": { frontmatter: { description: "What the listing says." } },
      generated: { dynamic: true },
      mismatch: { uriSegment: "other-name" },
      broken: { resources: { not: "a list" } },
      huge: {
        resources: Array.from({ length: 513 }, (_, index) => ({
          uri: index === 0 ? "skill://huge/SKILL.md" : `skill://huge/f${index}.md`,
          digest,
          size: 1,
        })),
      },
    }),
  );
  await put(
    path.join(home, ".PseudoClaude", "settings.json"),
    JSON.stringify({
      mcpServers: { docs: { command: process.execPath, args: [SERVER, skillsRoot, overridesFile] } },
    }),
  );
  workspace = await createWorkspace({ workdir, home });
  await workspace.startMcp(false);
}, 60_000);

afterAll(async () => {
  await workspace?.mcp.close();
  await rm(root, { recursive: true, force: true });
});

describe("the catalog's MCP source", () => {
  it("lists every page of skills/list as mcp:<server>, qualifying a name another origin has", () => {
    const docs = workspace.mcp.views().find((server) => server.name === "docs")!;
    expect(docs.status, docs.error).toBe("connected");
    const served = workspace.catalog
      .snapshot()
      .skills.filter((skill) => skill.source === "mcp:docs")
      .map((skill) => skill.name);
    // Nine folders, two entries a page: five pages read; the malformed and the declined are not skills.
    expect(served).toEqual([
      "changing",
      "docs/review",
      "fm-differs",
      "generated",
      "pdf-tools",
      "swapped",
      "tampered",
    ]);
    expect(view("review")!.source).toBe("project");
    expect(view("docs/review")!.mcp).toMatchObject({
      server: "docs",
      uri: "skill://review/SKILL.md",
      listedName: "review",
      qualifiedBecause: 'a skill on disk is also named "review"',
    });
    expect(view("pdf-tools")!.mcp!.files!.map((file) => file.path)).toEqual([
      "SKILL.md",
      "reference/forms.md",
    ]);
  });

  it("does not load a malformed entry or one over the limits, and says why", () => {
    const warnings = workspace.catalog.warnings().filter((warning) => warning.source === "mcp:docs");
    const reasons = warnings.map((warning) => warning.reason).join("\n");
    expect(reasons).toContain(`the URI's last segment "other-name" is not the frontmatter name "mismatch"`);
    expect(reasons).toContain('its resources are neither a list of files nor "dynamic"');
    expect(reasons).toContain("declined: it lists 513 files; the limit is 512");
    const notOffered = workspace.catalog.notOffered().filter((entry) => entry.source === "mcp:docs");
    expect(notOffered.map((entry) => entry.kind)).toEqual(["unreadable", "unreadable", "unreadable"]);
  });

  it("shows them in `catalog --json` as mcp:docs", () => {
    const report = catalogReport(workspace, { trusted: false } as never);
    const json = JSON.parse(JSON.stringify(report)) as { skills: { name: string; source: string }[] };
    expect(json.skills.find((skill) => skill.name === "pdf-tools")!.source).toBe("mcp:docs");
  });

  it("fetched nothing ahead of need", async () => {
    await expect(access(path.join(home, ".PseudoClaude", "mcp-skills"))).rejects.toThrow();
  });
});

describe("loading an MCP skill", () => {
  it("fetches and verifies its SKILL.md, tells the model its origin, and reads each file on demand", async () => {
    const result = await workspace.loadSkill("pdf-tools");
    expect(result.ok, result.ok ? "" : result.error).toBe(true);
    const active = workspace.activeSkills.get("pdf-tools")!;
    expect(active.source).toBe("mcp:docs");
    expect(active.body).toContain("Read reference/forms.md before filling a form.");
    expect(active.body).toContain("served by MCP server docs (skill://pdf-tools/SKILL.md)");
    const environment = buildEnvironment({
      version: "test",
      cwd: workspace.workdir,
      platform: "linux",
      date: "2026-12-03",
      provider: "scripted",
      model: "scripted",
      activeSkills: workspace.prompt.activeSkills(),
    });
    expect(environment).toContain('<skill name="pdf-tools" source="mcp:docs">');

    const baseDir = active.resources!.baseDir;
    expect(baseDir).toContain(path.join(".PseudoClaude", "mcp-skills", "docs"));
    // Only the SKILL.md so far: the reference is fetched when it is read.
    await expect(access(path.join(baseDir, "reference", "forms.md"))).rejects.toThrow();
    const read = await readTool(path.join(baseDir, "reference", "forms.md"));
    expect(read.ok).toBe(true);
    expect(read.content).toContain("Field names are case-sensitive.");
    expect(read.effects).toContainEqual(
      expect.objectContaining({
        type: "skill_resource_read",
        skill: "pdf-tools",
        path: "reference/forms.md",
      }),
    );

    // Bytes changed in the cache are never served: checked again at every read, fetched again.
    await writeFile(path.join(baseDir, "reference", "forms.md"), "tampered on disk\n");
    const again = await readTool(path.join(baseDir, "reference", "forms.md"));
    expect(again.ok).toBe(true);
    expect(again.content).toContain("Field names are case-sensitive.");
    expect(await readFile(path.join(baseDir, "reference", "forms.md"), "utf8")).toContain("case-sensitive");

    const unlisted = await readTool(path.join(baseDir, "reference", "extra.md"));
    expect(unlisted.ok).toBe(false);
    expect(unlisted.ok ? "" : unlisted.error).toContain("an unlisted file is a verification failure");
  });

  it("refuses a file whose bytes do not match the listed digest", async () => {
    expect((await workspace.loadSkill("tampered")).ok).toBe(true);
    const baseDir = workspace.activeSkills.get("tampered")!.resources!.baseDir;
    const read = await readTool(path.join(baseDir, "ref.md"));
    expect(read.ok).toBe(false);
    expect(read.ok ? "" : read.error).toMatch(
      /ref\.md hashes to sha256:[0-9a-f]{64}, the entry lists sha256:[0-9a-f]{64}: verification failed/,
    );
    await expect(access(path.join(baseDir, "ref.md"))).rejects.toThrow();
  });

  it("does not load a SKILL.md whose bytes are not the listed ones, or whose frontmatter differs from the entry", async () => {
    const swapped = await workspace.loadSkill("swapped");
    expect(swapped.ok).toBe(false);
    expect(swapped.ok ? "" : swapped.error).toMatch(
      /SKILL\.md is \d+ bytes, the entry lists \d+: verification failed/,
    );
    expect(workspace.activeSkills.has("swapped")).toBe(false);
    const differs = await workspace.loadSkill("fm-differs");
    expect(differs.ok).toBe(false);
    expect(differs.ok ? "" : differs.error).toContain('frontmatter field "description" differs');
  });

  it("loads a dynamic skill with a warning", async () => {
    const result = await workspace.loadSkill("generated");
    expect(result.ok).toBe(true);
    expect(result.content).toContain('warning: skill "generated" from MCP server docs is dynamic');
  });

  it("refuses a skill whose file set changed since it was listed, and lists the new set to be asked again", async () => {
    const before = view("changing")!.mcp!.contentKey;
    await put(path.join(skillsRoot, "changing", "new.md"), "added after the listing\n");
    const result = await workspace.loadSkill("changing");
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.error).toContain(
      "changed on MCP server docs since it was listed (added new.md)",
    );
    const after = view("changing")!.mcp!;
    expect(after.contentKey).not.toBe(before);
    expect(after.files!.map((file) => file.path)).toEqual(["SKILL.md", "new.md"]);
    expect((await workspace.loadSkill("changing")).ok).toBe(true);
  });
});

describe("consent and allowed-tools", () => {
  function loadCheck(name: string): PermissionCheck {
    const tool = workspace.registry.get("load_skill")!;
    return {
      callId: "c1",
      tool: tool.definition,
      input: { name },
      target: (
        tool as unknown as {
          describe(input: unknown, context: { workdir: string }): PermissionCheck["target"];
        }
      ).describe({ name }, { workdir: workspace.workdir }),
    };
  }

  it("asks before the first load in every mode, bound to the URI and file set, and again when the set changes", () => {
    const engine = new PermissionEngine({ mode: "bypassPermissions" });
    const check = loadCheck("pdf-tools");
    expect(check.target.consent!.key).toMatch(
      /^mcp:docs skill:\/\/pdf-tools\/SKILL\.md sha256:[0-9a-f]{64}$/,
    );
    expect(engine.evaluate(check)).toMatchObject({ decision: "ask", source: "list" });
    expect(engine.evaluate(loadCheck("review")).decision).toBe("allow");
    engine.rememberSessionAllow(check);
    expect(engine.evaluate(check).decision).toBe("allow");
    const changed = {
      ...check,
      target: {
        ...check.target,
        consent: { ...check.target.consent!, key: `${check.target.consent!.key}0` },
      },
    };
    expect(engine.evaluate(changed).decision).toBe("ask");
  });

  it("ignores an MCP skill's allowed-tools unless the person granted them for that content", () => {
    const input = {
      honour: true,
      trusted: true,
      active: [{ name: "pdf-tools", source: "mcp:docs" as const }],
      catalog: workspace.catalog,
    };
    expect(skillAllowRules(input)).toEqual([]);
    const key = loadCheck("pdf-tools").target.consent!.key;
    expect(skillAllowRules({ ...input, mcpGrants: [key] }).map((rule) => rule.entry)).toEqual(["Bash(rm:*)"]);
    expect(skillAllowRules({ ...input, mcpGrants: [`${key}0`] })).toEqual([]);
  });

  it("asks before every command while an MCP skill is loaded, whatever the mode and the rules", () => {
    const rule = parseRule("allow", "run_command(ls*)", "test");
    if (typeof rule === "string") throw new Error(rule);
    const engine = new PermissionEngine({
      mode: "bypassPermissions",
      rules: [rule],
      sandbox: { enabled: true, mechanism: "bubblewrap", network: false },
    });
    const tool = workspace.registry.get("run_command")!;
    const describe = () =>
      (
        tool as unknown as {
          describe(input: unknown, context: { workdir: string }): PermissionCheck["target"];
        }
      ).describe({ command: "ls -la" }, { workdir: workspace.workdir });
    const check = (): PermissionCheck => ({
      callId: "c2",
      tool: tool.definition,
      input: { command: "ls -la" },
      target: describe(),
    });
    expect(check().target.consent!.reason).toContain('"pdf-tools" (mcp:docs)');
    expect(engine.evaluate(check())).toMatchObject({ decision: "ask", source: "list" });
    engine.rememberSessionAllow(check());
    expect(engine.evaluate(check()).decision).toBe("allow");
    for (const active of workspace.activeSkills.list())
      if (active.source.startsWith("mcp:")) workspace.activeSkills.deactivate(active.name);
    const fresh = new PermissionEngine({
      mode: "bypassPermissions",
      sandbox: { enabled: true, mechanism: "bubblewrap", network: false },
    });
    expect(check().target.consent).toBeUndefined();
    expect(fresh.evaluate(check()).decision).toBe("allow");
  });
});
