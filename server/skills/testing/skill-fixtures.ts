// Real temp folders for skills tests (no fs mocks).
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach } from "vitest";
import type { CatalogLayers } from "../types.ts";

export interface TempLayers {
  root: string;
  layers: CatalogLayers;
  cleanup(): Promise<void>;
}

/** Three empty layer folders under one temp root. */
export async function makeTempLayers(): Promise<TempLayers> {
  const root = await mkdtemp(path.join(os.tmpdir(), "skills-test-"));
  const layers: CatalogLayers = {
    builtin: path.join(root, "builtin"),
    user: path.join(root, "home", ".PseudoClaude", "skills"),
    project: path.join(root, "workdir", ".PseudoClaude", "skills"),
  };
  for (const folder of Object.values(layers)) await mkdir(folder, { recursive: true });
  return { root, layers, cleanup: () => rm(root, { recursive: true, force: true }) };
}

export function skillMarkdown(fields: Record<string, string>, body = "Do the thing step by step."): string {
  const yamlLines = Object.entries(fields).map(([key, value]) => `${key}: ${value}`);
  return `---\n${yamlLines.join("\n")}\n---\n\n${body}\n`;
}

/** Writes `<layer>/<folder>/SKILL.md` (and tools.json when given). Returns the skill folder. */
export async function writeSkill(
  layer: string,
  folder: string,
  markdown: string,
  toolsJson?: unknown,
  files: Record<string, string> = {},
): Promise<string> {
  const skillDir = path.join(layer, folder);
  await mkdir(skillDir, { recursive: true });
  await writeFile(path.join(skillDir, "SKILL.md"), markdown);
  if (toolsJson !== undefined) {
    const text = typeof toolsJson === "string" ? toolsJson : JSON.stringify(toolsJson, null, 2);
    await writeFile(path.join(skillDir, "tools.json"), text);
  }
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(skillDir, name)), { recursive: true });
    await writeFile(path.join(skillDir, name), content, { mode: 0o755 });
  }
  return skillDir;
}

/** A simple valid skill with the given name and description. */
export function simpleSkill(name: string, description = `The ${name} skill.`, body?: string): string {
  return skillMarkdown({ name, description }, body);
}

/** A description that says when to use it, so the playground's "no sign of when" lint stays quiet. */
export const WHEN_TO_USE = "Use when the user asks for it.";

/** Fresh temp layers for every test of the calling file (vitest hooks); read `.current` inside a test. */
export function tempLayersPerTest(): { readonly current: TempLayers } {
  const holder: { current: TempLayers } = { current: undefined as unknown as TempLayers };
  beforeEach(async () => {
    holder.current = await makeTempLayers();
  });
  afterEach(async () => {
    await holder.current.cleanup();
  });
  return holder;
}
