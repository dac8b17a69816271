// What the package must hold. The bundle (dist/) carries the server's code, but the server also reads data
// files at run time through `new URL("…", import.meta.url)` (build-package.mjs rewrites each to the
// source file's place in the package). This test finds every such read in the modules the bundle holds
// (esbuild's own list of inputs, from the same options the build uses), says which files and folders they
// are, and checks that `npm pack` ships them; and that it ships nothing generated: every packed file is
// either tracked by git or a build output (out/, dist/). Eval results planted next to the demo's eval
// files (the names server/eval/results.ts gives them) must stay out.
import { execFile } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUNDLE_OPTIONS } from "./bundle-options.mjs";
import { resultPaths } from "../server/eval/results.ts";

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("..", import.meta.url));
/** Folders the package builds (prepack) instead of taking them from the checkout. */
const BUILD_OUTPUTS = ["dist/", "out/"];

interface RuntimePath {
  /** Repo-relative; a folder ends with "/". */
  path: string;
  /** Where the server reads it: file:line. */
  readBy: string;
}

/** The repo's server modules the bundle holds (esbuild's inputs, node_modules left out). */
async function bundledServerModules(): Promise<string[]> {
  const result = await build({
    ...(BUNDLE_OPTIONS as Parameters<typeof build>[0]),
    absWorkingDir: repoRoot,
    outdir: path.join(os.tmpdir(), "package-files-unused"),
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  return Object.keys(result.metafile!.inputs).filter((input) => input.startsWith("server/"));
}

const LITERAL = String.raw`"([^"]+)"`;
const URL_OF = new RegExp(String.raw`new URL\(${LITERAL}, import\.meta\.url\)`, "g");

/**
 * Every path one module reads relative to itself. Each `import.meta.url` must sit in
 * `new URL("<literal>", import.meta.url)`. A URL of a folder kept in a constant counts as the whole folder,
 * unless every use of the constant names a path inside it (`path.join(NAME, "a", "b")`, `${NAME}a`).
 */
function runtimePathsOf(module: string, text: string, problems: string[]): RuntimePath[] {
  const found: RuntimePath[] = [];
  const lineOf = (index: number) => `${module}:${text.slice(0, index).split("\n").length}`;
  const uses = [...text.matchAll(/import\.meta\.url/g)].length;
  const urls = [...text.matchAll(URL_OF)];
  if (urls.length !== uses) {
    problems.push(`${module}: import.meta.url used other than in new URL("<literal path>", import.meta.url)`);
  }
  for (const match of urls) {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(module), match[1]));
    const isFolder = match[1].endsWith("/") || match[1] === ".." || match[1] === ".";
    const relative = isFolder ? `${target.replace(/\/$/, "")}/`.replace(/^\.\/$/, "") : target;
    const readBy = lineOf(match.index);
    const assigned = new RegExp(String.raw`const (\w+) = (?:fileURLToPath\()?$`).exec(
      text.slice(text.lastIndexOf("\n", match.index) + 1, match.index),
    );
    if (!isFolder || !assigned) {
      found.push({ path: relative, readBy });
      continue;
    }
    const name = assigned[1];
    const inside = new RegExp(
      String.raw`path\.join\(${name}((?:, ${LITERAL})+)\)|\$\{${name}\}([\w./-]+)`,
      "g",
    );
    const named = [...text.matchAll(inside)];
    const total = [...text.matchAll(new RegExp(String.raw`\b${name}\b`, "g"))].length - 1;
    if (named.length !== total) {
      if (relative === "") problems.push(`${readBy}: ${name} (the package root) is used as a whole`);
      found.push({ path: relative, readBy });
      continue;
    }
    for (const use of named) {
      const parts = use[1] ? [...use[1].matchAll(new RegExp(LITERAL, "g"))].map((part) => part[1]) : [use[3]];
      const joined = path.posix.join(relative, ...parts);
      const full = path.join(repoRoot, joined);
      const folder =
        BUILD_OUTPUTS.includes(`${joined}/`) || (existsSync(full) && statSync(full).isDirectory());
      found.push({ path: folder ? `${joined}/` : joined, readBy: lineOf(use.index!) });
    }
  }
  return found;
}

async function runtimePaths(): Promise<{ paths: RuntimePath[]; problems: string[] }> {
  const problems: string[] = [];
  const paths: RuntimePath[] = [];
  for (const module of await bundledServerModules()) {
    const text = readFileSync(path.join(repoRoot, module), "utf8");
    if (text.includes("import.meta.url")) paths.push(...runtimePathsOf(module, text, problems));
  }
  return { paths, problems };
}

/** Files of the checkout as git sees them: tracked, plus new files not ignored (work in progress). */
async function checkoutFiles(): Promise<string[]> {
  const { stdout } = await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: repoRoot,
    maxBuffer: 16 << 20,
  });
  return stdout.split("\0").filter((file) => file !== "" && existsSync(path.join(repoRoot, file)));
}

let copy: string;
let tracked: string[];
let packed: string[];
let planted: string[];
let runtime: { paths: RuntimePath[]; problems: string[] };

beforeAll(async () => {
  tracked = await checkoutFiles();
  copy = await mkdtemp(path.join(os.tmpdir(), "package-files-"));
  for (const file of tracked) {
    await mkdir(path.dirname(path.join(copy, file)), { recursive: true });
    await cp(path.join(repoRoot, file), path.join(copy, file));
  }
  // A trigger-lab run writes its results next to each eval file: as if it had run on the demo's.
  planted = [];
  for (const file of tracked.filter((name) => /^examples\/.*\/evals\/[^/]+\.ya?ml$/.test(name))) {
    for (const generated of Object.values(resultPaths(file))) {
      await writeFile(path.join(copy, generated), "{}\n");
      planted.push(generated);
    }
  }
  const { stdout } = await run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: copy,
    maxBuffer: 64 << 20,
  });
  packed = (JSON.parse(stdout) as { files: { path: string }[] }[])[0].files.map((file) => file.path);
  runtime = await runtimePaths();
}, 120_000);

afterAll(async () => {
  if (copy) await rm(copy, { recursive: true, force: true });
});

describe("the package", () => {
  it("lists every file the server reads at run time, each found in the bundled modules", () => {
    expect(runtime.problems).toEqual([]);
    const paths = [...new Set(runtime.paths.map((entry) => entry.path))].sort();
    // The scan must see at least these (it proves the scan works; a new read is checked below anyway).
    expect(paths).toEqual(
      expect.arrayContaining([
        "examples/demo-workdir/",
        "out/",
        "package.json",
        "scenarios/",
        "server/cache/cache-rules.json",
        "server/cache/prices.json",
        "server/skills/tools-json.schema.json",
        "skills/",
      ]),
    );
  });

  it("packs every file the server reads at run time", () => {
    const files = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")).files as string[];
    const missing: string[] = [];
    for (const { path: wanted, readBy } of runtime.paths) {
      if (BUILD_OUTPUTS.includes(wanted)) {
        if (!files.includes(wanted))
          missing.push(`${wanted} (read by ${readBy}) is not in package.json files`);
        continue;
      }
      const expected = wanted.endsWith("/")
        ? tracked.filter((file) => file.startsWith(wanted) && !file.endsWith("/.gitignore"))
        : [wanted];
      if (expected.length === 0) missing.push(`${wanted} (read by ${readBy}) is not in the checkout`);
      for (const file of expected) {
        if (!packed.includes(file)) missing.push(`${file} (read by ${readBy}) is not packed`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("packs nothing generated: every packed file is tracked or a build output", () => {
    expect(planted.length).toBeGreaterThan(0);
    const untracked = packed.filter(
      (file) => !tracked.includes(file) && !BUILD_OUTPUTS.some((folder) => file.startsWith(folder)),
    );
    expect(untracked).toEqual([]);
  });
});
