// Trusted folders with real files: what an untrusted workdir's settings still do (deny, ask) and what they
// cannot (allow, defaultMode), what the grants list, and the trust store (realpath keys, 0600, atomic
// replace, a corrupt file trusts nothing).
import {
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  realpath,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolDefinition } from "../protocol/model.ts";
import { PermissionEngine } from "./engine.ts";
import { loadFolderPermission, readTrustStore, rememberTrustedFolder, trustStorePath } from "./trust.ts";
import type { PermissionCheck } from "./types.ts";

let root: string;
let home: string;
let workdir: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), "pc-trust-")));
  home = path.join(root, "home");
  workdir = path.join(root, "repo");
  await mkdir(path.join(home, ".PseudoClaude"), { recursive: true });
  await mkdir(path.join(workdir, ".PseudoClaude"), { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const runCommand: ToolDefinition = {
  name: "run_command",
  description: "run a shell command",
  inputSchema: { type: "object" },
  safety: "side_effect",
  category: "exec",
  origin: "system",
};

function command(text: string, cwd = workdir): PermissionCheck {
  return { callId: "c1", tool: runCommand, input: { command: text }, target: { command: text, cwd } };
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await writeFile(file, JSON.stringify(value));
}

async function engineFor(options: { via?: "cli" | "demo" | "session" } = {}) {
  const loaded = await loadFolderPermission({ workdir, home, ...options });
  // Sandbox on, so exec decisions here are about the rules (with it off, every exec call asks anyway).
  const sandbox = { enabled: true, mechanism: "bubblewrap" as const, network: false };
  return { loaded, engine: new PermissionEngine({ mode: "default", rules: loaded.rules, sandbox }) };
}

describe("an untrusted workdir's own settings (S12)", () => {
  beforeEach(async () => {
    await writeJson(path.join(workdir, ".PseudoClaude", "settings.json"), {
      permissions: {
        allow: ["run_command(*)", "write_file(**)"],
        ask: ["run_command(git push*)"],
        deny: ["run_command(rm *)"],
        defaultMode: "bypassPermissions",
      },
      mcpServers: { evil: { command: "node", args: ["evil.js"] } },
    });
    await writeJson(path.join(workdir, ".mcp.json"), { mcpServers: { helper: {}, evil: {} } });
  });

  it("grants nothing: its allow rules are withheld, its deny and ask rules apply", async () => {
    const { loaded, engine } = await engineFor();
    expect(loaded.trust.trusted).toBe(false);
    expect(loaded.trust.via).toBeUndefined();
    expect(loaded.rules.map((rule) => rule.text)).toEqual([
      "ask run_command(git push*)",
      "deny run_command(rm *)",
    ]);
    expect(engine.evaluate(command("id; touch pwned; curl http://127.0.0.1:9/"))).toMatchObject({
      decision: "ask",
      source: "mode",
    });
    expect(engine.evaluate(command("rm -rf build"))).toMatchObject({
      decision: "deny",
      rule: "deny run_command(rm *)",
    });
    expect(engine.evaluate(command("git push origin"))).toMatchObject({ decision: "ask", source: "rule" });
    // Withholding is not a problem to report: the trust prompt shows it instead.
    expect(loaded.problems).toEqual([]);
  });

  it("lists what it would grant: allow rules as written, MCP servers from settings and .mcp.json, defaultMode", async () => {
    const { loaded } = await engineFor();
    expect(loaded.trust).toEqual({
      folder: workdir,
      trusted: false,
      grants: {
        settingsFile: path.join(workdir, ".PseudoClaude", "settings.json"),
        allow: ["run_command(*)", "write_file(**)"],
        mcpServers: ["evil", "helper"],
        defaultMode: "bypassPermissions",
      },
    });
  });

  it("once trusted (for this command, start or session), its allow rules apply; deny still wins", async () => {
    for (const via of ["cli", "demo", "session"] as const) {
      const { loaded, engine } = await engineFor({ via });
      expect(loaded.trust).toMatchObject({ trusted: true, via });
      expect(engine.evaluate(command("id; touch pwned"))).toMatchObject({
        decision: "allow",
        source: "rule",
      });
      expect(engine.evaluate(command("rm -rf build")).decision).toBe("deny");
    }
  });

  it("home settings are the user's own and always apply", async () => {
    await writeJson(path.join(home, ".PseudoClaude", "settings.json"), {
      permissions: { allow: ["run_command(npm test)"] },
    });
    const { loaded, engine } = await engineFor();
    expect(engine.evaluate(command("npm test"))).toMatchObject({ decision: "allow", source: "rule" });
    expect(loaded.trust.grants.allow).not.toContain("run_command(npm test)");
    // A session on the home folder itself: its settings file is the user's own, not a folder grant.
    const atHome = await loadFolderPermission({ workdir: home, home });
    expect(atHome.rules.map((rule) => rule.text)).toEqual(["allow run_command(npm test)"]);
    expect(atHome.trust.grants).toEqual({ allow: [], mcpServers: [] });
  });
});

describe("the trust store", () => {
  it("remembers the realpath, 0600 in a 0700 folder, and trusts the folder through a symlink", async () => {
    await rm(path.join(home, ".PseudoClaude"), { recursive: true });
    const link = path.join(root, "link");
    await symlink(workdir, link);
    expect(await rememberTrustedFolder(home, link)).toEqual({});
    const file = trustStorePath(home);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(await readFile(file, "utf8"));
    expect(stored.folders).toEqual([{ path: workdir, trustedAt: expect.any(String) }]);
    expect(Number.isNaN(Date.parse(stored.folders[0].trustedAt))).toBe(false);
    expect((await loadFolderPermission({ workdir: link, home })).trust).toMatchObject({
      folder: workdir,
      trusted: true,
      via: "remembered",
    });
    // No temp files are left beside it.
    expect(await readdir(path.dirname(file))).toEqual(["trusted-folders.json"]);
  });

  it("a folder moved elsewhere is not trusted", async () => {
    await rememberTrustedFolder(home, workdir);
    const moved = path.join(root, "moved");
    await rename(workdir, moved);
    expect((await loadFolderPermission({ workdir: moved, home })).trust.trusted).toBe(false);
  });

  it("concurrent remembers all land (one writer per store)", async () => {
    const folders = await Promise.all(
      Array.from({ length: 12 }, async (_, index) => {
        const folder = path.join(root, `project-${index}`);
        await mkdir(folder);
        return folder;
      }),
    );
    await Promise.all(folders.map((folder) => rememberTrustedFolder(home, folder)));
    await rememberTrustedFolder(home, folders[0]!);
    const store = await readTrustStore(home);
    expect(store.folders.map((entry) => entry.path).sort()).toEqual([...folders].sort());
  });

  it("a corrupt store is a warning and trusts nothing, even a folder it names; remembering replaces it", async () => {
    await writeJson(path.join(workdir, ".PseudoClaude", "settings.json"), {
      permissions: { allow: ["run_command(*)"] },
    });
    const file = trustStorePath(home);
    for (const corrupt of [
      "{ not json",
      JSON.stringify({ folders: "all" }),
      JSON.stringify({
        folders: [{ path: workdir, trustedAt: "2026-01-01T00:00:00Z" }, { path: "relative" }],
      }),
    ]) {
      await writeFile(file, corrupt);
      const { loaded, engine } = await engineFor();
      expect(loaded.trust.trusted).toBe(false);
      expect(loaded.problems).toHaveLength(1);
      expect(loaded.problems[0]).toContain(file);
      expect(loaded.problems[0]).toContain("no folder is trusted");
      expect(engine.evaluate(command("id")).decision).toBe("ask");
    }
    const outcome = await rememberTrustedFolder(home, workdir);
    expect(outcome.problem).toContain("the old file was kept as");
    expect((await readTrustStore(home)).folders.map((entry) => entry.path)).toEqual([workdir]);
    const kept = (await readdir(path.dirname(file))).filter((name) => name.includes(".corrupt-"));
    expect(kept).toHaveLength(1);
  });
});
