// The installer on real archives (built with fflate) and real folders in temp dirs: what installs, what is
// refused (and that a refusal writes nothing), what a plan says, and --force.
import { existsSync } from "node:fs";
import { link, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Catalog, defaultLayers } from "./catalog.ts";
import { installSkill, type InstallSource } from "./install-source.ts";
import type { InstallTarget } from "./install.ts";
import { MAX_INSTALL_FILES } from "./install-tree.ts";
import { simpleSkill } from "./testing/skill-fixtures.ts";
import { declareSize, zipFolder, zipOf } from "./testing/zip-fixtures.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
let root: string;
let home: string;
let workdir: string;
let builtin: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "install-test-"));
  home = path.join(root, "home");
  workdir = path.join(root, "workdir");
  builtin = path.join(root, "builtin");
  for (const folder of [home, workdir, builtin]) await mkdir(folder);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const userTarget = (): InstallTarget => ({ layer: "user", home, workdir, builtinDir: builtin });
const userSkills = () => path.join(home, ".PseudoClaude", "skills");
const bytes = (name: string, data: Buffer): InstallSource => ({ kind: "bytes", name, data });

/** Everything under the temp root except the empty starting folders: a refusal must leave nothing. */
async function writtenFiles(): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string) => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      found.push(path.relative(root, full));
      if (entry.isDirectory()) await walk(full);
    }
  };
  await walk(root);
  return found.filter((entry) => !["home", "workdir", "builtin"].includes(entry));
}

async function expectRefused(source: InstallSource, entry: string, rule: RegExp): Promise<void> {
  const outcome = await installSkill(source, userTarget());
  expect(outcome.ok).toBe(false);
  if (outcome.ok) return;
  expect(outcome.refusal.entry).toBe(entry);
  expect(outcome.refusal.rule).toMatch(rule);
  expect(outcome.refusal.message).toBe(`refused: ${JSON.stringify(entry)}: ${outcome.refusal.rule}`);
  expect(outcome.refusal.message.includes("\n")).toBe(false);
  expect(await writtenFiles()).toEqual([]);
}

describe("installSkill", () => {
  it("installs the zipped builtin csv-report into the user layer; the catalog lists it from user", async () => {
    const zip = await zipFolder(path.join(repoRoot, "skills", "csv-report"), "csv-report");
    const outcome = await installSkill(bytes("csv-report.zip", zip), {
      layer: "user",
      home,
      workdir,
    });
    expect(outcome).toMatchObject({ ok: true, installed: true, replaced: [] });
    if (!outcome.ok) return;
    expect(outcome.plan).toMatchObject({
      name: "csv-report",
      targetDir: path.join(userSkills(), "csv-report"),
      toolNames: ["profile_csv"],
      shadows: [{ source: "builtin", path: path.join(repoRoot, "skills", "csv-report", "SKILL.md") }],
      shadowedBy: [],
      needsForce: false,
    });
    const installed = path.join(userSkills(), "csv-report");
    expect(await readFile(path.join(installed, "SKILL.md"), "utf8")).toBe(
      await readFile(path.join(repoRoot, "skills", "csv-report", "SKILL.md"), "utf8"),
    );
    // No temp folder is left next to it.
    expect(await readdir(userSkills())).toEqual(["csv-report"]);
    const catalog = await Catalog.create(defaultLayers(workdir, home));
    const view = catalog.snapshot().skills.find((skill) => skill.name === "csv-report");
    expect(view).toMatchObject({ source: "user", toolNames: ["profile_csv"] });
    expect(catalog.snapshot().shadowed).toContainEqual(
      expect.objectContaining({ name: "csv-report", winner: expect.objectContaining({ source: "user" }) }),
    );
  });

  it("keeps the executable bit of a script and installs nested files", async () => {
    const zip = zipOf({
      "tool-skill/SKILL.md": { data: simpleSkill("tool-skill"), mode: 0o100644 },
      "tool-skill/scripts/run.sh": { data: "#!/bin/sh\necho hi\n", mode: 0o100755 },
      "tool-skill/reference.md": { data: "# Reference\n", mode: 0o100644 },
      "tool-skill/tools.json": JSON.stringify({
        tools: [{ name: "run_it", description: "runs", command: ["scripts/run.sh"] }],
      }),
    });
    const outcome = await installSkill(bytes("tool-skill.zip", zip), userTarget());
    expect(outcome).toMatchObject({ ok: true, plan: { toolNames: ["run_it"], files: 4 } });
    const script = await stat(path.join(userSkills(), "tool-skill", "scripts", "run.sh"));
    expect(script.mode & 0o111).not.toBe(0);
    const reference = await stat(path.join(userSkills(), "tool-skill", "reference.md"));
    expect(reference.mode & 0o111).toBe(0);
  });

  it("refuses a zip-slip entry, naming it, and writes nothing", async () => {
    const zip = zipOf({ "evil/SKILL.md": simpleSkill("evil"), "evil/../../escaped.txt": "pwned" });
    await expectRefused(bytes("evil.zip", zip), "evil/../../escaped.txt", /'\.\.' in the path/);
    expect(existsSync(path.join(root, "escaped.txt"))).toBe(false);
  });

  it("refuses absolute paths and backslashes", async () => {
    await expectRefused(
      bytes("abs.zip", zipOf({ "abs/SKILL.md": simpleSkill("abs"), "/etc/evil": "x" })),
      "/etc/evil",
      /absolute path/,
    );
    await expectRefused(
      bytes("bs.zip", zipOf({ "bs/SKILL.md": simpleSkill("bs"), "bs\\..\\evil": "x" })),
      "bs\\..\\evil",
      /backslash/,
    );
  });

  it("refuses a symlink entry", async () => {
    const zip = zipOf({
      "linky/SKILL.md": { data: simpleSkill("linky"), mode: 0o100644 },
      "linky/passwd": { data: "/etc/passwd", mode: 0o120777 },
    });
    await expectRefused(bytes("linky.zip", zip), "linky/passwd", /symbolic link/);
  });

  it("refuses a device-file entry", async () => {
    const zip = zipOf({
      "dev/SKILL.md": simpleSkill("dev"),
      "dev/null": { data: "", mode: 0o020666 },
    });
    await expectRefused(bytes("dev.zip", zip), "dev/null", /device file/);
  });

  it("refuses a zip bomb whose headers are honest before inflating it", async () => {
    const zip = zipOf({
      "bomb/SKILL.md": simpleSkill("bomb"),
      "bomb/zeros.bin": { data: new Uint8Array(31 * 1024 * 1024) },
    });
    expect(zip.length).toBeLessThan(200 * 1024);
    await expectRefused(bytes("bomb.zip", zip), "bomb/zeros.bin", /more than 30 MiB uncompressed \(declared/);
  });

  it("stops a zip bomb whose headers lie while it inflates", async () => {
    const zip = declareSize(
      zipOf({
        "bomb/SKILL.md": simpleSkill("bomb"),
        "bomb/zeros.bin": { data: new Uint8Array(40 * 1024 * 1024) },
      }),
      "bomb/zeros.bin",
      1000,
    );
    await expectRefused(bytes("bomb.zip", zip), "bomb/zeros.bin", /cannot inflate: too many bytes/);
  });

  it("refuses many files whose total is over 30 MiB", async () => {
    const big = new Uint8Array(11 * 1024 * 1024);
    const zip = zipOf({
      "many/SKILL.md": simpleSkill("many"),
      "many/a": { data: big },
      "many/b": { data: big },
      "many/c": { data: big },
    });
    await expectRefused(bytes("many.zip", zip), "many/c", /more than 30 MiB/);
  });

  it(`refuses more than ${MAX_INSTALL_FILES} files`, async () => {
    const entries: Record<string, string> = { "lots/SKILL.md": simpleSkill("lots") };
    for (let index = 0; index < MAX_INSTALL_FILES; index++) entries[`lots/f${index}.txt`] = "x";
    await expectRefused(
      bytes("lots.zip", zipOf(entries)),
      `lots/f${MAX_INSTALL_FILES - 1}.txt`,
      /more than 512 files/,
    );
  });

  it("refuses two top-level folders and a top-level file", async () => {
    await expectRefused(
      bytes("two.zip", zipOf({ "one/SKILL.md": simpleSkill("one"), "two/SKILL.md": simpleSkill("two") })),
      "two/SKILL.md",
      /a second top-level folder "two" next to "one"/,
    );
    await expectRefused(
      bytes("loose.zip", zipOf({ "one/SKILL.md": simpleSkill("one"), "README.md": "hi" })),
      "README.md",
      /a file at the top level/,
    );
  });

  it("refuses a skill that does not parse, and a tools.json command outside the skill", async () => {
    await expectRefused(
      bytes("bad.zip", zipOf({ "bad/SKILL.md": "---\nname: bad\n---\n\nbody\n" })),
      "bad/SKILL.md",
      /line 1: frontmatter field "description" is missing/,
    );
    await expectRefused(
      bytes(
        "esc.zip",
        zipOf({
          "esc/SKILL.md": simpleSkill("esc"),
          "esc/tools.json": JSON.stringify({
            tools: [{ name: "x", description: "x", command: ["../../bin/sh"] }],
          }),
        }),
      ),
      "esc/tools.json",
      /outside the skill folder/,
    );
    await expectRefused(bytes("nomd.zip", zipOf({ "nomd/skill.txt": "x" })), "nomd/", /no SKILL.md/);
  });

  it("skips __MACOSX metadata folders", async () => {
    const zip = zipOf({ "mac/SKILL.md": simpleSkill("mac"), "__MACOSX/mac/._SKILL.md": "junk" });
    expect(await installSkill(bytes("mac.zip", zip), userTarget())).toMatchObject({ ok: true });
    expect(await readdir(path.join(userSkills(), "mac"))).toEqual(["SKILL.md"]);
  });

  it("accepts a lower-case skill.md (Agent Skills client guide) and the catalog lists the skill", async () => {
    const zip = zipOf({ "lower/skill.md": simpleSkill("lower"), "lower/reference.md": "ref" });
    expect(await installSkill(bytes("lower.zip", zip), userTarget())).toMatchObject({ ok: true });
    expect((await readdir(path.join(userSkills(), "lower"))).sort()).toEqual(["reference.md", "skill.md"]);
    const catalog = await Catalog.create(defaultLayers(workdir, home));
    expect(catalog.snapshot().skills.find((skill) => skill.name === "lower")).toMatchObject({
      source: "user",
    });
  });

  it("replaces a same-name skill only with force, and says so in the plan first", async () => {
    const first = zipOf({ "dup/SKILL.md": simpleSkill("dup", "first version") });
    const second = zipOf({ "dup/SKILL.md": simpleSkill("dup", "second version"), "dup/extra.md": "more" });
    expect(await installSkill(bytes("dup.zip", first), userTarget())).toMatchObject({ ok: true });
    const dryRun = await installSkill(bytes("dup.zip", second), userTarget(), { dryRun: true });
    expect(dryRun).toMatchObject({
      ok: true,
      installed: false,
      plan: { needsForce: true, replaces: [{ path: path.join(userSkills(), "dup") }] },
    });
    const refused = await installSkill(bytes("dup.zip", second), userTarget());
    expect(refused).toMatchObject({ ok: false, refusal: { rule: expect.stringMatching(/pass --force/) } });
    expect(await readFile(path.join(userSkills(), "dup", "SKILL.md"), "utf8")).toMatch(/first version/);
    const forced = await installSkill(bytes("dup.zip", second), userTarget(), { force: true });
    expect(forced).toMatchObject({ ok: true, installed: true, replaced: [path.join(userSkills(), "dup")] });
    expect(await readFile(path.join(userSkills(), "dup", "SKILL.md"), "utf8")).toMatch(/second version/);
    expect((await readdir(userSkills())).sort()).toEqual(["dup"]);
  });

  it("installs from a folder, refusing a symlink inside it", async () => {
    const source = path.join(root, "src-skill");
    await mkdir(path.join(source, "docs"), { recursive: true });
    await writeFile(path.join(source, "SKILL.md"), simpleSkill("folder-skill"));
    await writeFile(path.join(source, "docs", "reference.md"), "ref");
    const outcome = await installSkill({ kind: "path", path: source }, userTarget());
    expect(outcome).toMatchObject({ ok: true, plan: { name: "folder-skill", files: 2 } });
    expect(await readFile(path.join(userSkills(), "folder-skill", "docs", "reference.md"), "utf8")).toBe(
      "ref",
    );

    await symlink("/etc/passwd", path.join(source, "docs", "link"));
    const again = await installSkill({ kind: "path", path: source }, userTarget(), { force: true });
    expect(again).toMatchObject({
      ok: false,
      refusal: { entry: "docs/link", rule: expect.stringMatching(/symbolic link/) },
    });
  });

  it("installs into the project layer of the workdir, and says which layer still wins", async () => {
    const zip = zipOf({ "proj/SKILL.md": simpleSkill("proj") });
    const outcome = await installSkill(bytes("proj.zip", zip), {
      layer: "project",
      home,
      workdir,
      builtinDir: builtin,
    });
    expect(outcome).toMatchObject({
      ok: true,
      plan: { targetDir: path.join(workdir, ".PseudoClaude", "skills", "proj") },
    });
    const userOutcome = await installSkill(bytes("proj.zip", zip), userTarget(), { dryRun: true });
    expect(userOutcome).toMatchObject({
      ok: true,
      plan: {
        shadowedBy: [
          { source: "project", path: path.join(workdir, ".PseudoClaude", "skills", "proj", "SKILL.md") },
        ],
      },
    });
  });

  it("refuses a project layer reached through a symlinked .PseudoClaude", async () => {
    const elsewhere = path.join(root, "elsewhere");
    await mkdir(elsewhere);
    await symlink(elsewhere, path.join(workdir, ".PseudoClaude"));
    const outcome = await installSkill(bytes("p.zip", zipOf({ "p/SKILL.md": simpleSkill("p") })), {
      layer: "project",
      home,
      workdir,
      builtinDir: builtin,
    });
    expect(outcome).toMatchObject({ ok: false, refusal: { rule: expect.stringMatching(/symbolic link/) } });
    expect(await readdir(elsewhere)).toEqual([]);
  });
});

describe("S24: what an install source cannot bring in", () => {
  it("a folder with a hard-linked file is refused, naming the file (a second name of a file that may live anywhere)", async () => {
    const secret = path.join(root, "outside-secret.txt");
    await writeFile(secret, "a file from elsewhere on this machine");
    const source = path.join(root, "linked");
    await mkdir(path.join(source, "docs"), { recursive: true });
    await writeFile(path.join(source, "SKILL.md"), simpleSkill("linked"));
    await link(secret, path.join(source, "docs", "notes.md"));
    const outcome = await installSkill({ kind: "path", path: source }, userTarget());
    expect(outcome).toMatchObject({
      ok: false,
      refusal: { entry: "docs/notes.md", rule: expect.stringMatching(/^hard link \(the file has 2 names/) },
    });
    expect(existsSync(userSkills())).toBe(false);
  });

  it("a zip install skips .git (folder or file, any case) and node_modules at any depth, as a folder install does", async () => {
    const entries = {
      "g/SKILL.md": simpleSkill("g"),
      "g/run.mjs": "console.log(1)",
      "g/.git/config": "[core]\n\tfsmonitor = touch /tmp/pwned\n",
      "g/.git/hooks/post-checkout": { data: "#!/bin/sh\ntouch /tmp/pwned\n", mode: 0o100755 },
      "g/.GIT/HEAD": "ref: refs/heads/main\n",
      "g/sub/.git": "gitdir: /tmp/elsewhere\n",
      "g/sub/keep.md": "kept",
      "g/node_modules/x/index.js": "module.exports = 1",
    };
    const zipped = await installSkill(bytes("g.zip", zipOf(entries)), userTarget());
    expect(zipped).toMatchObject({ ok: true, plan: { files: 3 } });
    const installed = path.join(userSkills(), "g");
    expect((await readdir(installed)).sort()).toEqual(["SKILL.md", "run.mjs", "sub"]);
    expect(await readdir(path.join(installed, "sub"))).toEqual(["keep.md"]);

    // The same tree as a folder installs the same files.
    const source = path.join(root, "g");
    for (const [name, spec] of Object.entries(entries)) {
      const file = path.join(root, name);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, typeof spec === "string" ? spec : spec.data);
    }
    const folder = await installSkill({ kind: "path", path: source }, userTarget(), { force: true });
    expect(folder).toMatchObject({ ok: true, plan: { files: 3 } });
    expect((await readdir(installed)).sort()).toEqual(["SKILL.md", "run.mjs", "sub"]);
  });

  it("a skill name with bidi or invisible characters is refused at install, naming them", async () => {
    for (const [name, shown] of [
      ["rev\u202Eweiv", "\\u202E"],
      ["review\u200B", "\\u200B"],
      ["re\u2066view\u2069", "\\u2066"],
      ["review\uFE0F", "\\uFE0F"],
    ]) {
      const zip = zipOf({ "hidden/SKILL.md": simpleSkill(name!) });
      const outcome = await installSkill(bytes("hidden.zip", zip), userTarget());
      expect(outcome).toMatchObject({ ok: false, refusal: { entry: "hidden/SKILL.md" } });
      if (outcome.ok) return;
      expect(outcome.refusal.rule).toContain(shown);
      expect(outcome.refusal.rule).toMatch(/hidden characters/);
      expect(await writtenFiles()).toEqual([]);
    }
  });

  it("a skill already on disk whose name holds hidden characters is flagged in the catalog, not offered", async () => {
    const layer = path.join(workdir, ".PseudoClaude", "skills");
    await mkdir(path.join(layer, "spoof"), { recursive: true });
    await writeFile(path.join(layer, "spoof", "SKILL.md"), simpleSkill("csv\u200Dreport"));
    const catalog = await Catalog.create(defaultLayers(workdir, home));
    const snapshot = catalog.snapshot();
    expect(snapshot.skills.map((skill) => skill.name)).not.toContain("csv\u200Dreport");
    expect(snapshot.warnings).toContainEqual(
      expect.objectContaining({
        path: path.join(layer, "spoof", "SKILL.md"),
        reason: expect.stringMatching(/"name" holds hidden characters \(\\u200D\)/),
      }),
    );
  });
});
