import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isInside, resolveInWorkdir, type PathDecision } from "./confine.ts";

// SECURITY rows P1–P5, P7, P8 and the protected-area flag of P10, on real folders and symlinks.

let base: string;
let workdir: string;
let outside: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), "pc-confine-")));
  workdir = path.join(base, "proj");
  outside = path.join(base, "outside");
  await mkdir(path.join(workdir, "src"), { recursive: true });
  await mkdir(outside);
  await mkdir(path.join(base, "proj-evil"));
  await writeFile(path.join(workdir, "src", "a.ts"), "export {};\n");
  await writeFile(path.join(outside, "secret.txt"), "secret\n");
  await writeFile(path.join(base, "proj-evil", "f"), "evil\n");
  await symlink(outside, path.join(workdir, "out"));
  await symlink(outside, path.join(workdir, "link"));
  await symlink(path.join(workdir, "src"), path.join(workdir, "inner-link"));
  await symlink(path.join(base, "missing-target"), path.join(workdir, "dangling"));
  await symlink(workdir, path.join(base, "proj-via-link"));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

function expectRefused(decision: PathDecision, fragment: string): void {
  expect(decision.ok).toBe(false);
  if (!decision.ok) {
    expect(decision.errorType).toBe("path_refused");
    expect(decision.reason).toContain(fragment);
  }
}

describe("workdir confinement", () => {
  it("accepts ordinary relative paths, existing or not", () => {
    const existing = resolveInWorkdir(workdir, "src/a.ts");
    expect(existing).toMatchObject({
      ok: true,
      relative: "src/a.ts",
      exists: true,
      absolute: path.join(workdir, "src/a.ts"),
    });
    const fresh = resolveInWorkdir(workdir, "src/new/deep.txt");
    expect(fresh).toMatchObject({ ok: true, relative: "src/new/deep.txt", exists: false });
    expect(resolveInWorkdir(workdir, "src/../src/a.ts")).toMatchObject({ ok: true, relative: "src/a.ts" });
    expect(resolveInWorkdir(workdir, ".")).toMatchObject({ ok: true, relative: "." });
  });

  it("P1: `..` escapes are refused", () => {
    expectRefused(resolveInWorkdir(workdir, "../../etc/passwd"), "outside the working directory");
    expectRefused(resolveInWorkdir(workdir, "a/../../x"), "outside the working directory");
    expectRefused(resolveInWorkdir(workdir, ".."), "outside the working directory");
  });

  it("P2: absolute paths outside and `~` are refused", () => {
    expectRefused(resolveInWorkdir(workdir, "/etc/passwd"), "outside the working directory");
    expectRefused(resolveInWorkdir(workdir, "~/x"), "`~` is not expanded");
    expectRefused(resolveInWorkdir(workdir, "~"), "`~` is not expanded");
    expectRefused(resolveInWorkdir(workdir, "~root/.ssh"), "`~` is not expanded");
  });

  it("accepts an absolute path inside the workdir", () => {
    expect(resolveInWorkdir(workdir, path.join(workdir, "src/a.ts"))).toMatchObject({
      ok: true,
      relative: "src/a.ts",
    });
  });

  it("P3: a symlink to outside is refused after realpath, for existing and new files", () => {
    expectRefused(resolveInWorkdir(workdir, "out/secret.txt"), "symlink leads outside");
    expectRefused(resolveInWorkdir(workdir, "out/f"), "symlink leads outside");
    expectRefused(resolveInWorkdir(workdir, "out"), "symlink leads outside");
  });

  it("a symlink that stays inside the workdir is followed", () => {
    expect(resolveInWorkdir(workdir, "inner-link/a.ts")).toMatchObject({ ok: true, relative: "src/a.ts" });
  });

  it("P4: a sibling folder sharing the prefix is outside (separator-aware, not startsWith)", () => {
    expectRefused(
      resolveInWorkdir(workdir, path.join(base, "proj-evil", "f")),
      "outside the working directory",
    );
    expectRefused(resolveInWorkdir(workdir, "../proj-evil/f"), "outside the working directory");
    expect(isInside("/w/proj", "/w/proj-evil/f")).toBe(false);
    expect(isInside("/w/proj", "/w/proj/f")).toBe(true);
    expect(isInside("/w/proj", "/w/proj")).toBe(true);
    expect(isInside("/w/proj", "/w/proj/..f")).toBe(true);
  });

  it("P5: a missing path below a link to outside is refused (realpath of the nearest existing ancestor)", () => {
    expectRefused(resolveInWorkdir(workdir, "link/new/deep.txt"), "symlink leads outside");
  });

  it("a dangling symlink is refused rather than written through", () => {
    expectRefused(resolveInWorkdir(workdir, "dangling"), "symlink whose target does not exist");
    expectRefused(resolveInWorkdir(workdir, "dangling/x.txt"), "symlink whose target does not exist");
  });

  it("P7: a workdir reached through a symlink accepts legitimate paths", () => {
    const viaLink = path.join(base, "proj-via-link");
    expect(resolveInWorkdir(viaLink, "src/a.ts")).toMatchObject({
      ok: true,
      relative: "src/a.ts",
      exists: true,
    });
    expect(resolveInWorkdir(viaLink, path.join(viaLink, "src/a.ts"))).toMatchObject({
      ok: true,
      relative: "src/a.ts",
    });
    expect(resolveInWorkdir(viaLink, "src/new.txt")).toMatchObject({
      ok: true,
      relative: "src/new.txt",
      exists: false,
    });
    expectRefused(resolveInWorkdir(viaLink, "../outside/secret.txt"), "outside the working directory");
  });

  it("P8: a NUL byte is refused without a crash", () => {
    expectRefused(resolveInWorkdir(workdir, "src/a.ts\0.png"), "NUL byte");
    expectRefused(resolveInWorkdir(workdir, "\0"), "NUL byte");
  });

  it("P10: .git and .PseudoClaude targets are flagged as protected", () => {
    expect(resolveInWorkdir(workdir, ".git/config")).toMatchObject({ ok: true, protectedArea: ".git" });
    expect(resolveInWorkdir(workdir, ".PseudoClaude/skills/x/SKILL.md")).toMatchObject({
      ok: true,
      protectedArea: ".PseudoClaude",
    });
    expect(resolveInWorkdir(workdir, "vendor/lib/.git/hooks/pre-commit")).toMatchObject({
      ok: true,
      protectedArea: ".git",
    });
    const plain = resolveInWorkdir(workdir, "src/.gitignore");
    expect(plain.ok && plain.protectedArea).toBeFalsy();
  });

  it("P10: a symlinked .PseudoClaude or .git protects both its own name and its target's", async () => {
    const linked = path.join(base, "linked-areas");
    await mkdir(path.join(linked, "pc", "skills"), { recursive: true });
    await mkdir(path.join(linked, "gitdir", "hooks"), { recursive: true });
    await mkdir(path.join(linked, "pcx"));
    await writeFile(path.join(linked, "pc", "settings.json"), "{}\n");
    await symlink("pc", path.join(linked, ".PseudoClaude"));
    await symlink(path.join(linked, "gitdir"), path.join(linked, ".git"));
    for (const given of [".PseudoClaude/settings.json", "pc/settings.json", "pc/skills/new/SKILL.md", "pc"]) {
      expect(resolveInWorkdir(linked, given), given).toMatchObject({
        ok: true,
        protectedArea: ".PseudoClaude",
      });
    }
    expect(resolveInWorkdir(linked, ".PseudoClaude/settings.json")).toMatchObject({
      relative: "pc/settings.json",
      root: linked,
      exists: true,
      missingParts: 0,
    });
    for (const given of [".git/hooks/pre-commit", "gitdir/hooks/pre-commit", "gitdir/config"]) {
      expect(resolveInWorkdir(linked, given), given).toMatchObject({ ok: true, protectedArea: ".git" });
    }
    // Separator-aware: a sibling sharing the prefix is not the protected folder.
    const sibling = resolveInWorkdir(linked, "pcx/file.txt");
    expect(sibling.ok && sibling.protectedArea).toBeFalsy();
    expect(resolveInWorkdir(linked, "pcx/new/deep.txt")).toMatchObject({ ok: true, missingParts: 2 });
  });
});
