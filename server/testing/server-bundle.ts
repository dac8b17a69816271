// The server as the tests start it: the esbuild bundle `npm pack` ships (scripts/build-package.mjs
// --server-only), built once per state of the sources into node_modules/.cache and reused until a source
// changes. A test that needs the whole server as a process (e2e/fixtures.ts, spawned-server.ts) starts it
// with plain Node in about a second, instead of tsx compiling every module again (about 4 s of CPU per
// start; the browser suite starts one server per test). The bundle runs the same sources: its modules find
// their data files next to those sources (build-package.mjs rewrites import.meta.url).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function* sources(folder: string): Generator<string> {
  for (const entry of readdirSync(path.join(ROOT, folder)).sort()) {
    const relative = path.join(folder, entry);
    if (statSync(path.join(ROOT, relative)).isDirectory()) {
      if (entry !== "testing" && entry !== "fixtures") yield* sources(relative);
    } else if (entry.endsWith(".ts") && !entry.endsWith(".test.ts")) yield relative;
    else if (entry.endsWith(".json")) yield relative;
  }
}

/** What the bundle is made of: the server's sources, the lockfile and the bundler script. */
function sourceHash(): string {
  const hash = createHash("sha256");
  for (const file of [...sources("server"), "package.json", "package-lock.json", "scripts/build-package.mjs"])
    hash
      .update(file)
      .update("\0")
      .update(readFileSync(path.join(ROOT, file)));
  return hash.digest("hex").slice(0, 16);
}

/**
 * The path of dist/server.mjs's equivalent for the current sources, bundling it first when there is none.
 * Safe to call from several test workers at once: each builds into its own folder and the first rename
 * wins.
 */
export function serverBundle(): string {
  const cache = path.join(ROOT, "node_modules", ".cache", "pseudoclaude-server");
  const folder = path.join(cache, sourceHash());
  const entry = path.join(folder, "server.mjs");
  if (existsSync(entry)) return entry;
  const building = `${folder}.${process.pid}.${Date.now()}`;
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, "scripts", "build-package.mjs"), "--server-only", "--outdir", building],
    { cwd: ROOT, encoding: "utf8" },
  );
  if (result.status !== 0)
    throw new Error(`bundling the server for the tests failed:\n${result.stdout}${result.stderr}`);
  try {
    renameSync(building, folder);
  } catch (error) {
    // Another worker finished first: its bundle is the same.
    if (!existsSync(entry)) throw error;
    rmSync(building, { recursive: true, force: true });
  }
  // Bundles of earlier source states are not needed again.
  for (const old of readdirSync(cache))
    if (old !== path.basename(folder) && !old.includes("."))
      rmSync(path.join(cache, old), { recursive: true, force: true });
  return entry;
}

/** The CLI from the same bundle (dist/cli.mjs's equivalent), as the package runs it. */
export function bundledCli(): string {
  return path.join(path.dirname(serverBundle()), "cli.mjs");
}
