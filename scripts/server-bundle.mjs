// The server's esbuild bundle (the one `npm pack` ships: build-package.mjs --server-only), built once per
// state of its sources into node_modules/.cache and reused until a source changes. `npm start`
// (scripts/start.mjs) runs it with plain Node, and so do the tests that need the whole server as a process
// (server/testing/server-bundle.ts): a start in well under a second, instead of tsx compiling every module
// again (about 4 s of CPU per start). The bundle runs the same sources: its modules find their data files
// next to those sources (build-package.mjs rewrites import.meta.url).
//
// The key is the content of every file the bundle is made of — the server's sources (server/, minus
// tests, testing helpers and fixtures), package.json, the lockfile and the bundler scripts — so an edited
// source always gets a new bundle, and a bundle of other sources never runs (a stale bundle would show
// code that is not on disk). Content, not mtimes: a checkout or a copy that keeps times cannot fool it.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const BUILD_FILES = [
  "package.json",
  "package-lock.json",
  "scripts/build-package.mjs",
  "scripts/bundle-options.mjs",
  "scripts/server-bundle.mjs",
];

/** @param {string} folder @returns {Generator<string>} */
function* sources(folder) {
  for (const entry of readdirSync(path.join(ROOT, folder)).sort()) {
    const relative = path.join(folder, entry);
    if (statSync(path.join(ROOT, relative)).isDirectory()) {
      if (entry !== "testing" && entry !== "fixtures") yield* sources(relative);
    } else if (entry.endsWith(".ts") && !entry.endsWith(".test.ts")) yield relative;
    else if (entry.endsWith(".json")) yield relative;
  }
}

/** What the bundle is made of, hashed: the server's sources, the lockfile and the bundler scripts. */
export function sourceHash() {
  const hash = createHash("sha256");
  for (const file of [...sources("server"), ...BUILD_FILES])
    hash
      .update(file)
      .update("\0")
      .update(readFileSync(path.join(ROOT, file)));
  return hash.digest("hex").slice(0, 16);
}

/** The folder bundles are kept in (one per state of the sources; older ones are removed). */
export const BUNDLE_CACHE = path.join(ROOT, "node_modules", ".cache", "pseudoclaude-server");

/**
 * The path of dist/server.mjs's equivalent for the current sources, bundling it first when there is none
 * (`onBuild` is told before, with the reason). Safe to call from several processes at once: each builds
 * into its own folder and the first rename wins.
 * @param {{ onBuild?: (line: string) => void }} [options]
 * @returns {string}
 */
export function serverBundle(options = {}) {
  const folder = path.join(BUNDLE_CACHE, sourceHash());
  const entry = path.join(folder, "server.mjs");
  if (existsSync(entry)) return entry;
  options.onBuild?.("Bundling the server (its sources changed since the last start)…");
  const building = `${folder}.${process.pid}.${Date.now()}`;
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, "scripts", "build-package.mjs"), "--server-only", "--inputs", "--outdir", building],
    { cwd: ROOT, encoding: "utf8" },
  );
  if (result.status !== 0) {
    rmSync(building, { recursive: true, force: true });
    throw new Error(`bundling the server failed:\n${result.stdout}${result.stderr}`);
  }
  // Every file the bundle was made of must be in the key, or an edit to it would go unseen: a server
  // module that imports from outside server/ (or from a testing folder) stops here, naming it.
  const keyed = new Set([...sources("server")].map((file) => file.split(path.sep).join("/")));
  const unkeyed = JSON.parse(readFileSync(path.join(building, "inputs.json"), "utf8")).filter(
    (/** @type {string} */ input) => !input.startsWith("node_modules/") && !keyed.has(input),
  );
  if (unkeyed.length > 0) {
    rmSync(building, { recursive: true, force: true });
    throw new Error(
      `the server bundle is made of files its cache key does not cover: ${unkeyed.join(", ")} — ` +
        "add them to sources() in scripts/server-bundle.mjs",
    );
  }
  try {
    renameSync(building, folder);
  } catch (error) {
    // Another process finished first: its bundle is the same.
    if (!existsSync(entry)) throw error;
    rmSync(building, { recursive: true, force: true });
  }
  // Bundles of earlier source states are not needed again (a folder still being built has a dot).
  for (const old of readdirSync(BUNDLE_CACHE))
    if (old !== path.basename(folder) && !old.includes("."))
      rmSync(path.join(BUNDLE_CACHE, old), { recursive: true, force: true });
  return entry;
}

/** The CLI from the same bundle (dist/cli.mjs's equivalent), as the package runs it. */
export function bundledCli() {
  return path.join(path.dirname(serverBundle()), "cli.mjs");
}
