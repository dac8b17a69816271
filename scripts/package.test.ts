// The package as a user gets it: `npm pack` (prepack builds the pages and bundles the server), installed
// with `npm install -g --prefix TMP ./pkg.tgz` (it has no dependencies to fetch: the server and the CLI
// are bundled with theirs, and every package.json entry is a devDependency of the repo), then the installed bin started in another folder without --workdir: it serves the pages
// with no build step, and that folder is the workdir. Slow (minutes): one test.
import { execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("..", import.meta.url));
let root: string | undefined;

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

function waitForUrl(output: () => string, exited: Promise<unknown>): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /PLAYGROUND_URL=(\S+)/.exec(output());
      if (match) {
        clearInterval(timer);
        resolve(match[1]);
      }
    }, 100);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`the installed bin exited before printing its URL:\n${output()}`));
    });
  });
}

it("packs, installs into a temp prefix and serves the page from another folder", async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "package-test-"));
  const packed = await run("npm", ["pack", "--pack-destination", root], {
    cwd: repoRoot,
    maxBuffer: 64 << 20,
  });
  const tarball = path.join(root, packed.stdout.trim().split("\n").at(-1)!);
  expect((await readdir(root)).filter((name) => name.endsWith(".tgz"))).toEqual([path.basename(tarball)]);
  const prefix = path.join(root, "prefix");
  await run(
    "npm",
    ["install", "-g", "--prefix", prefix, tarball, "--prefer-offline", "--no-audit", "--no-fund"],
    { cwd: root, maxBuffer: 64 << 20 },
  );
  // Nothing was fetched: the bundle needs no node_modules of its own.
  const installed = path.join(prefix, "lib", "node_modules", "pseudoclaude-playground");
  expect((await readdir(installed)).sort()).not.toContain("node_modules");
  const folder = path.join(root, "some-project");
  const home = path.join(root, "home");
  await mkdir(folder);
  await mkdir(home);
  let output = "";
  const child = spawn(path.join(prefix, "bin", "pseudoclaude-playground"), ["--port", "0", "--home", home], {
    cwd: folder,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    const url = new URL(await waitForUrl(() => output, exited));
    // No build step: the installed package serves the pages it shipped.
    expect(output).not.toContain("Building the playground pages");
    expect(output).toContain(`workdir: ${await realpath(folder)}`);
    const page = await fetch(new URL("/", url));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("<html");
    const script = /src="(\/_next\/static\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect((await fetch(new URL(script!, url))).status).toBe(200);
  } finally {
    process.kill(-child.pid!, "SIGTERM");
    await exited;
  }
}, 900_000);
