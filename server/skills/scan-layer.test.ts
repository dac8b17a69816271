import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SCAN_CONCURRENCY, newScanContext, scanLayers, type LayerScan } from "./scan-layer.ts";
import type { SkillSource } from "./types.ts";
import { MAX_SKILL_FILE_BYTES } from "./read-bounded.ts";
import { parseToolsJsonText } from "./tools-json.ts";
import { makeTempLayers, simpleSkill, writeSkill, type TempLayers } from "./testing/skill-fixtures.ts";

/** Scans one layer folder (a missing folder is an empty layer, not a warning). */
async function scanLayer(source: SkillSource, folder: string): Promise<LayerScan> {
  const [scan] = await scanLayers([{ source, folder }]);
  return scan!;
}

let temp: TempLayers;

beforeEach(async () => {
  temp = await makeTempLayers();
});

afterEach(async () => {
  await temp.cleanup();
});

const nodeTools = (name: string) => ({
  tools: [{ name, description: `${name} tool`, command: ["node", "tool.mjs"] }],
});

describe("concurrent scan, deterministic result", () => {
  it("gives skills and warnings in folder order, whatever order the reads finish in", async () => {
    const count = SCAN_CONCURRENCY * 4;
    const expectedNames: string[] = [];
    const expectedWarningPaths: string[] = [];
    for (let index = 0; index < count; index++) {
      const folder = `skill-${String(index).padStart(3, "0")}`;
      // Long bodies on some early entries make those reads finish after later ones.
      const body = index % 7 === 0 ? "Step.\n".repeat(20_000) : "Step.";
      if (index % 5 === 3) {
        await writeSkill(temp.layers.builtin, folder, "# no frontmatter\n");
        expectedWarningPaths.push(path.join(temp.layers.builtin, folder, "SKILL.md"));
      } else if (index % 11 === 4) {
        // Same name as the entry before it: the earlier folder keeps it, this one is the duplicate.
        await writeSkill(temp.layers.builtin, folder, simpleSkill(expectedNames[expectedNames.length - 1]));
        expectedWarningPaths.push(path.join(temp.layers.builtin, folder, "SKILL.md"));
      } else {
        await writeSkill(temp.layers.builtin, folder, simpleSkill(folder, undefined, body));
        expectedNames.push(folder);
      }
    }
    const scan = await scanLayer("builtin", temp.layers.builtin);
    expect(scan.skills.map((loaded) => loaded.skill.meta.name)).toEqual(expectedNames);
    expect(scan.warnings.map((warning) => warning.path)).toEqual(expectedWarningPaths);
    const again = await scanLayer("builtin", temp.layers.builtin);
    expect(again).toEqual(scan);
  });

  it("scanning several layers at once equals scanning each alone, in the order given", async () => {
    for (const [layer, names] of [
      [temp.layers.builtin, ["b", "a", "c"]],
      [temp.layers.user, ["a", "d"]],
      [temp.layers.project, ["e"]],
    ] as const) {
      for (const name of names) await writeSkill(layer, name, simpleSkill(name));
      await writeSkill(layer, "broken", "---\nname: [\n---\n");
    }
    const together = await scanLayers([
      { source: "builtin", folder: temp.layers.builtin },
      { source: "user", folder: temp.layers.user },
      { source: "project", folder: temp.layers.project },
    ]);
    expect(together).toEqual([
      await scanLayer("builtin", temp.layers.builtin),
      await scanLayer("user", temp.layers.user),
      await scanLayer("project", temp.layers.project),
    ]);
    expect(together[0].skills.map((loaded) => loaded.skill.meta.name)).toEqual(["a", "b", "c"]);
  });
});

describe("entries read directly, no exists-checks", () => {
  it("skips folders without SKILL.md, warns about a SKILL.md that is a folder and a dangling link", async () => {
    await mkdir(path.join(temp.layers.user, "shared-scripts"), { recursive: true });
    await mkdir(path.join(temp.layers.user, "odd", "SKILL.md"), { recursive: true });
    await symlink(path.join(temp.root, "nowhere"), path.join(temp.layers.user, "dangling"));
    await writeFile(path.join(temp.layers.user, "notes.txt"), "not a skill");
    await writeSkill(temp.layers.user, "fine", simpleSkill("fine"));
    const scan = await scanLayer("user", temp.layers.user);
    expect(scan.skills.map((loaded) => loaded.skill.meta.name)).toEqual(["fine"]);
    expect(scan.warnings).toEqual([
      {
        source: "user",
        path: path.join(temp.layers.user, "dangling"),
        reason: expect.stringMatching(/^cannot read: ENOENT/),
      },
      {
        source: "user",
        path: path.join(temp.layers.user, "odd", "SKILL.md"),
        reason: expect.stringMatching(/^cannot read SKILL\.md: EISDIR/),
      },
    ]);
  });

  it("treats a missing tools.json as no tools and an oversized one as one warning", async () => {
    await writeSkill(temp.layers.project, "plain", simpleSkill("plain"));
    const big = await writeSkill(temp.layers.project, "big", simpleSkill("big"));
    await writeFile(path.join(big, "tools.json"), " ".repeat(MAX_SKILL_FILE_BYTES + 1));
    const scan = await scanLayer("project", temp.layers.project);
    expect(
      scan.skills.map((loaded) => [loaded.skill.meta.name, loaded.skill.tools, loaded.toolsRaw]),
    ).toEqual([["plain", [], ""]]);
    expect(scan.warnings).toEqual([
      {
        source: "project",
        path: path.join(big, "tools.json"),
        skill: "big",
        reason: `cannot read tools.json: file is ${MAX_SKILL_FILE_BYTES + 1} bytes; the limit is ${MAX_SKILL_FILE_BYTES}`,
      },
    ]);
  });
});

describe("work shared within one scan", () => {
  it("looks a bare command name up on PATH once per scan", async () => {
    for (let index = 0; index < 20; index++) {
      await writeSkill(
        temp.layers.builtin,
        `tool-${index}`,
        simpleSkill(`tool-${index}`),
        nodeTools(`t${index}`),
      );
    }
    const context = newScanContext();
    const [scan] = await scanLayers([{ source: "builtin", folder: temp.layers.builtin }], context);
    expect(scan.warnings).toEqual([]);
    expect(scan.skills).toHaveLength(20);
    expect([...context.pathLookups.keys()]).toEqual(["node"]);
    expect(await context.pathLookups.get("node")).toMatch(/node$/);
  });

  it("an invalid input_schema gets the same verdict every time (the verdict cache keeps the message)", () => {
    const text = JSON.stringify({
      tools: [
        {
          name: "t",
          description: "d",
          command: ["node"],
          input_schema: { type: "object", properties: { a: { type: 12 } } },
        },
      ],
    });
    const first = parseToolsJsonText(text);
    expect(first).toMatchObject({
      ok: false,
      problem: {
        reason: expect.stringMatching(/^tools\.json: \/tools\/0\/input_schema is not a valid JSON Schema: /),
      },
    });
    expect(parseToolsJsonText(text)).toEqual(first);
    const valid = text.replace('"type":12', '"type":"string"');
    expect(parseToolsJsonText(valid)).toMatchObject({ ok: true });
    expect(parseToolsJsonText(valid)).toMatchObject({ ok: true });
  });
});

describe("skills nested one folder too deep", () => {
  it("a folder with no SKILL.md whose subfolders hold skills is one warning naming them, never silence", async () => {
    // Collections group skills (`document-skills/pdf/SKILL.md`); a skill is a folder directly in the
    // skills folder, so these are not loaded, and the catalog says which and how to offer them.
    const group = path.join(temp.layers.project, "office-kit");
    await writeSkill(group, "sheets", simpleSkill("sheets"));
    await writeSkill(group, "slides", simpleSkill("slides"));
    await mkdir(path.join(group, "shared"), { recursive: true });
    await writeSkill(temp.layers.project, "top", simpleSkill("top"));
    // Shared material (a folder with no skill below it) stays silent.
    await mkdir(path.join(temp.layers.project, "assets", "img"), { recursive: true });
    const scan = await scanLayer("project", temp.layers.project);
    expect(scan.skills.map((loaded) => loaded.skill.meta.name)).toEqual(["top"]);
    expect(scan.warnings).toHaveLength(1);
    expect(scan.warnings[0]).toMatchObject({ source: "project", path: group });
    expect(scan.warnings[0]!.reason).toContain("sheets, slides");
    expect(scan.warnings[0]!.reason).toContain("one folder deep");
  });
});
