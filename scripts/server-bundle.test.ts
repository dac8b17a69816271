// `npm start`'s server bundle (scripts/server-bundle.mjs, run by scripts/start.mjs) is never stale: on a
// temp copy of the start scripts with a one-line server, the first start bundles, the next reuses the
// bundle, and an edited source makes the next start bundle again and run the new code. A touched file
// whose content did not change, and a new test file, keep the bundle; a source the key does not cover is
// refused.
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, rm, symlink, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, "..");
let root: string;

const server = (version: string) =>
  `// a stand-in server\nconsole.log("PLAYGROUND_URL=http://127.0.0.1:1/#version=${version}");\n`;

async function start(): Promise<{ stdout: string; bundles: string[] }> {
  const { stdout } = await run(process.execPath, [path.join(root, "scripts", "start.mjs")], { cwd: root });
  const bundles = await readdir(path.join(root, "node_modules", ".cache", "pseudoclaude-server"));
  return { stdout, bundles };
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "server-bundle-"));
  await mkdir(path.join(root, "scripts"));
  for (const file of ["start.mjs", "server-bundle.mjs", "build-package.mjs", "bundle-options.mjs"])
    await cp(path.join(REPO, "scripts", file), path.join(root, "scripts", file));
  for (const file of ["package.json", "package-lock.json"])
    await cp(path.join(REPO, file), path.join(root, file));
  // The bundler from the repo; the bundle cache is this copy's own (node_modules/.cache).
  await mkdir(path.join(root, "node_modules"));
  await symlink(path.join(REPO, "node_modules", "esbuild"), path.join(root, "node_modules", "esbuild"));
  await mkdir(path.join(root, "server"));
  await writeFile(path.join(root, "server", "index.ts"), server("1"));
  await writeFile(path.join(root, "server", "cli.ts"), "export {};\n");
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("npm start's cached server bundle", () => {
  it("bundles on the first start, reuses it, and bundles again after a source changed", async () => {
    const first = await start();
    expect(first.stdout).toContain("Bundling the server");
    expect(first.stdout).toContain("#version=1");
    expect(first.bundles).toHaveLength(1);

    const second = await start();
    expect(second.stdout).not.toContain("Bundling the server");
    expect(second.stdout).toContain("#version=1");
    expect(second.bundles).toEqual(first.bundles);

    // Same content, new time; and a test file, which the server never runs: the bundle stays.
    const later = new Date(Date.now() + 60_000);
    await utimes(path.join(root, "server", "index.ts"), later, later);
    await writeFile(path.join(root, "server", "index.test.ts"), "export {};\n");
    const touched = await start();
    expect(touched.stdout).not.toContain("Bundling the server");
    expect(touched.bundles).toEqual(first.bundles);

    await writeFile(path.join(root, "server", "index.ts"), server("2"));
    const edited = await start();
    expect(edited.stdout).toContain("Bundling the server");
    expect(edited.stdout).toContain("#version=2");
    // The earlier source state's bundle is gone.
    expect(edited.bundles).toHaveLength(1);
    expect(edited.bundles).not.toEqual(first.bundles);
  });

  it("refuses to keep a bundle made of a file outside its key, naming the file", async () => {
    await mkdir(path.join(root, "lib"), { recursive: true });
    await writeFile(path.join(root, "lib", "extra.ts"), 'export const extra = "outside server/";\n');
    await writeFile(
      path.join(root, "server", "index.ts"),
      'import { extra } from "../lib/extra.ts";\nconsole.log(`PLAYGROUND_URL=http://127.0.0.1:1/#${extra}`);\n',
    );
    await expect(start()).rejects.toThrow(/cache key does not cover: lib\/extra\.ts/);
  });
});
