// Installing from a folder while another process swaps one of its files for a symlink to a secret (and
// back) as fast as it can: the folder reader checks each entry with lstat and then reads it, so a swap in
// between must never put the secret into the install tree. Losing the race is a refusal, never the secret.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readSkillFolder } from "./folder-reader.ts";
import { InstallRefused } from "./install-tree.ts";

/** Reads per case: a swapped file loses at once; a swapped folder needs its walk to fall in the window. */
const FILE_TRIES = 300;
const FOLDER_TRIES = 3000;
const DEADLINE_MS = 10_000;
const SECRET = "SECRET-OUTSIDE-THE-SKILL";

let base: string;
let swapper: ChildProcess | undefined;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "pc-folder-race-")));
});
afterEach(async () => {
  if (swapper && swapper.exitCode === null) {
    const exited = new Promise((resolve) => swapper!.once("exit", resolve));
    swapper.kill("SIGKILL");
    await exited;
  }
  swapper = undefined;
  await rm(base, { recursive: true, force: true });
});

/**
 * A child process that, forever: `file` mode replaces `target` by a symlink to `secret`, then by a plain
 * file; `folder` mode parks the folder `target` at `parked`, puts a symlink to `secret` (a folder) in its
 * place, then puts the folder back.
 */
function startSwapper(
  mode: "file" | "folder",
  target: string,
  secret: string,
  parked = "",
): Promise<ChildProcess> {
  const script = `
    const fs = require("node:fs");
    const [mode, target, secret, parked] = process.argv.slice(1);
    const link = target + ".link", file = target + ".file";
    process.stdout.write("ready\\n");
    for (;;) {
      if (mode === "file") {
        try { fs.symlinkSync(secret, link); fs.renameSync(link, target); } catch {}
        try { fs.writeFileSync(file, "plain reference\\n"); fs.renameSync(file, target); } catch {}
      } else {
        try { fs.renameSync(target, parked); fs.symlinkSync(secret, target); } catch {}
        try { fs.unlinkSync(target); fs.renameSync(parked, target); } catch {}
      }
    }`;
  const child = spawn(process.execPath, ["-e", script, mode, target, secret, parked], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.stdout!.once("data", () => resolve(child));
  });
}

describe("readSkillFolder under a symlink swap (TOCTOU)", () => {
  it("never reads the target of a file swapped for a symlink after its lstat", async () => {
    const skill = path.join(base, "demo");
    await mkdir(skill);
    await writeFile(path.join(skill, "SKILL.md"), "---\nname: demo\ndescription: d\n---\nbody\n");
    const secret = path.join(base, "secret.txt");
    await writeFile(secret, `${SECRET}\n`);
    // The swapper's temp names sort after ref.md's and are skipped when they show up as links.
    swapper = await startSwapper("file", path.join(skill, "ref.md"), secret);
    await raceReads(skill, FILE_TRIES);
  }, 30_000);

  it("never reads outside the folder when a folder inside it is swapped for a symlink", async () => {
    const skill = path.join(base, "demo");
    await mkdir(path.join(skill, "refs"), { recursive: true });
    await writeFile(path.join(skill, "SKILL.md"), "---\nname: demo\ndescription: d\n---\nbody\n");
    await writeFile(path.join(skill, "refs", "ref.md"), "plain reference\n");
    const outside = path.join(base, "outside");
    await mkdir(outside);
    await writeFile(path.join(outside, "ref.md"), `${SECRET}\n`);
    swapper = await startSwapper("folder", path.join(skill, "refs"), outside, path.join(base, "parked"));
    await raceReads(skill, FOLDER_TRIES);
  }, 30_000);
});

async function raceReads(skill: string, tries: number): Promise<void> {
  {
    const deadline = Date.now() + DEADLINE_MS;
    let reads = 0;
    let refusals = 0;
    for (let attempt = 0; attempt < tries && Date.now() < deadline; attempt++) {
      try {
        const tree = await readSkillFolder(skill);
        reads += 1;
        for (const file of tree.files) expect(file.data.toString("utf8")).not.toContain(SECRET);
      } catch (error) {
        // A link seen by lstat, a file gone mid-walk, a temp name: all refusals or I/O errors, never the secret.
        if (!(error instanceof InstallRefused) && !(error as NodeJS.ErrnoException).code) throw error;
        refusals += 1;
      }
    }
    expect(reads + refusals).toBeGreaterThan(0);
  }
}
