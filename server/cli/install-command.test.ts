// The CLI (in-process; a real process where it needs its own environment): `install` of a zipped real skill, then `catalog` lists it from the user layer;
// refused archives exit 2 with one line and write nothing; a folder source; --force; and an https://
// source served by a real local HTTPS server whose self-signed certificate (made here with the openssl
// CLI) the CLI child trusts through NODE_EXTRA_CA_CERTS.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CatalogSnapshot } from "../protocol/catalog.ts";
import type { InstallOutcome } from "../protocol/install.ts";
import { Catalog, defaultLayers } from "../skills/catalog.ts";
import { simpleSkill } from "../skills/testing/skill-fixtures.ts";
import { parseCliArguments } from "./args.ts";
import { zipFolder, zipOf } from "../skills/testing/zip-fixtures.ts";
import { bundledCli } from "../testing/server-bundle.ts";
import { selfSignedCertificate } from "../testing/self-signed.ts";
import { REPO_ROOT, runCli, type CliResult } from "./testing/run-cli.ts";

let root: string;
let home: string;
let workdir: string;

/**
 * In-process, except when the command needs an environment of its own at start-up (NODE_EXTRA_CA_CERTS
 * is read once, when Node starts): then the CLI as a process (the bundle the package ships).
 */
function cli(args: string[], env?: Record<string, string>): Promise<CliResult> {
  if (!env) return runCli(args);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundledCli(), ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const userSkills = () => path.join(home, ".PseudoClaude", "skills");

async function catalogSkills(): Promise<CatalogSnapshot["skills"]> {
  const result = await cli(["catalog", "--workdir", workdir, "--home", home, "--json"]);
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as CatalogSnapshot).skills;
}

/** The same catalog, built in this process (a CLI start costs seconds on a busy machine). */
async function catalogSkillsHere(): Promise<CatalogSnapshot["skills"]> {
  return (await Catalog.create(defaultLayers(workdir, home))).snapshot().skills;
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "cli-install-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});
beforeEach(async () => {
  home = await mkdtemp(path.join(root, "home-"));
  workdir = await mkdtemp(path.join(root, "workdir-"));
});

describe("cli install", { timeout: 120_000 }, () => {
  it("installs a zipped real skill into the user layer; catalog lists it from user", async () => {
    const zipPath = path.join(root, "csv-report.zip");
    await writeFile(zipPath, await zipFolder(path.join(REPO_ROOT, "skills", "csv-report"), "csv-report"));
    const result = await cli(["install", zipPath, "--layer", "user", "--home", home, "--workdir", workdir]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^installed user skill "csv-report" → .*csv-report \(\d+ files, \d+ bytes, tools: profile_csv\)/,
    );
    expect(result.stdout).toContain(
      `shadows the builtin skill ${path.join(REPO_ROOT, "skills", "csv-report", "SKILL.md")}`,
    );
    const view = (await catalogSkills()).find((skill) => skill.name === "csv-report");
    expect(view).toMatchObject({ source: "user", rootDir: path.join(userSkills(), "csv-report") });
  });

  it.each([
    [
      "zip-slip",
      { "slip/SKILL.md": simpleSkill("slip"), "slip/../../../outside.txt": "x" },
      "slip/../../../outside.txt",
      "'..' in the path",
    ],
    [
      "a symlink entry",
      { "link/SKILL.md": simpleSkill("link"), "link/key": { data: "/root/.ssh/id_rsa", mode: 0o120777 } },
      "link/key",
      "symbolic link",
    ],
    [
      "two top-level folders",
      { "a/SKILL.md": simpleSkill("a"), "b/SKILL.md": simpleSkill("b") },
      "b/SKILL.md",
      "a second top-level folder",
    ],
    [
      "a zip bomb",
      { "bomb/SKILL.md": simpleSkill("bomb"), "bomb/z": { data: new Uint8Array(40 * 1024 * 1024) } },
      "bomb/z",
      "more than 30 MiB",
    ],
  ] as const)(
    "refuses %s: exit 2, one line naming the entry and the rule, nothing written",
    async (_label, entries, entry, rule) => {
      const zipPath = path.join(
        root,
        `refused-${entries === undefined ? "" : Object.keys(entries).length}-${Math.random()}.zip`,
      );
      await writeFile(zipPath, zipOf(entries as Parameters<typeof zipOf>[0]));
      const result = await cli(["install", zipPath, "--layer", "user", "--home", home]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      const lines = result.stderr.trimEnd().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(`^refused: ${JSON.stringify(entry).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: .*${rule}`),
      );
      expect(await readdir(home)).toEqual([]);
      expect(existsSync(path.join(root, "outside.txt"))).toBe(false);
    },
  );

  it("installs a folder into the project layer; --force replaces it, without --force it is refused", async () => {
    const source = path.join(root, "my-skill");
    await mkdir(source, { recursive: true });
    await writeFile(path.join(source, "SKILL.md"), simpleSkill("my-skill", "version one"));
    const first = await cli([
      "install",
      source,
      "--layer",
      "project",
      "--workdir",
      workdir,
      "--home",
      home,
      "--json",
    ]);
    expect(first.code).toBe(0);
    const outcome = JSON.parse(first.stdout) as InstallOutcome;
    expect(outcome).toMatchObject({ ok: true, installed: true, plan: { layer: "project" } });
    expect((await catalogSkillsHere()).find((skill) => skill.name === "my-skill")).toMatchObject({
      source: "project",
    });

    await writeFile(path.join(source, "SKILL.md"), simpleSkill("my-skill", "version two"));
    const again = await cli(["install", source, "--layer", "project", "--workdir", workdir, "--home", home]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(
      /^refused: ".*my-skill": a project skill "my-skill" is already installed here; pass --force to replace it\n$/,
    );
    const forced = await cli([
      "install",
      source,
      "--layer",
      "project",
      "--workdir",
      workdir,
      "--home",
      home,
      "--force",
    ]);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(`replaces ${path.join(workdir, ".PseudoClaude", "skills", "my-skill")}`);
    expect((await catalogSkillsHere()).find((skill) => skill.name === "my-skill")?.description).toBe(
      "version two",
    );
  });

  it("counts a one-file skill as 1 file, not 1 files", async () => {
    const folder = path.join(root, "one-file", "tiny");
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, "SKILL.md"), simpleSkill("tiny"));
    const result = await cli(["install", folder, "--layer", "user", "--home", home, "--dry-run"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^would install: user skill "tiny" → .*tiny \(1 file, \d+ bytes\)/);
  });

  it("refuses http:// and a project install without --workdir", async () => {
    const http = await cli(["install", "http://127.0.0.1:1/x.zip", "--layer", "user", "--home", home]);
    expect(http.code).toBe(2);
    expect(http.stderr).toMatch(/only https:\/\/ URLs are fetched/);
    expect(() => parseCliArguments(["install", "x.zip", "--layer", "project", "--home", home])).toThrow(
      /install needs --workdir DIR/,
    );
    expect(() => parseCliArguments(["install", "x.zip", "--home", home])).toThrow(
      /--layer user or --layer project/,
    );
  });
});

describe("cli install from https://", { timeout: 120_000 }, () => {
  let server: Server;
  let base: string;
  let caFile: string;
  const zip = zipOf({
    "web-skill/SKILL.md": simpleSkill("web-skill", "served over https"),
    "web-skill/reference.md": "ref",
  });

  beforeAll(async () => {
    const certDir = await mkdtemp(path.join(root, "cert-"));
    const certificate = await selfSignedCertificate(certDir);
    caFile = certificate.certFile;
    server = createServer({ key: certificate.key, cert: certificate.cert }, (request, response) => {
      if (request.url === "/skill.zip") {
        response.writeHead(200, { "Content-Type": "application/zip", "Content-Length": zip.length });
        response.end(zip);
      } else if (request.url === "/moved.zip") {
        response.writeHead(302, { Location: "/skill.zip" });
        response.end();
      } else if (request.url === "/huge.zip") {
        response.writeHead(200, { "Content-Type": "application/zip", "Content-Length": 64 * 1024 * 1024 });
        response.end();
      } else {
        response.writeHead(404, { "Content-Type": "text/plain" });
        response.end("not here");
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("downloads and installs a zip (following a redirect) when the certificate is trusted", async () => {
    const result = await cli(["install", `${base}/moved.zip`, "--layer", "user", "--home", home], {
      NODE_EXTRA_CA_CERTS: caFile,
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(await readFile(path.join(userSkills(), "web-skill", "reference.md"), "utf8")).toBe("ref");
  });

  it("refuses an untrusted certificate, a 404 and an over-size download, each in one line", async () => {
    const untrusted = await cli(["install", `${base}/skill.zip`, "--layer", "user", "--home", home]);
    expect(untrusted.code).toBe(2);
    expect(untrusted.stderr).toMatch(/^refused: GET .* failed: self[- ]signed certificate\n$/);
    const missing = await cli(["install", `${base}/nothing.zip`, "--layer", "user", "--home", home], {
      NODE_EXTRA_CA_CERTS: caFile,
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      `refused: GET ${base}/nothing.zip answered 404 Not Found (expected 200 with the .zip)\n`,
    );
    const huge = await cli(["install", `${base}/huge.zip`, "--layer", "user", "--home", home], {
      NODE_EXTRA_CA_CERTS: caFile,
    });
    expect(huge.code).toBe(2);
    expect(huge.stderr).toMatch(/the archive is larger than 32 MiB\n$/);
    expect(await readdir(home)).toEqual([]);
  });
});
