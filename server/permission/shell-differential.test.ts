// S7 against the real shells: generated lines made of the pieces the reproduced attacks used (quotes,
// escaped backticks, `#`, here-documents, line continuations, substitutions). On the hand-written splitter
// this found here-document bypasses; on the first parser version, `echo #\` + newline + `touch PWN`. Whenever the engine allows
// one by the rule `run_command(echo *)`, the line is run with /bin/sh (dash here) and with bash in a fresh
// folder, and must not create the file its hidden `touch` names.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { SandboxState } from "../protocol/sandbox.ts";
import { createSystemTools } from "../tools/system/index.ts";
import { PermissionEngine } from "./engine.ts";
import { parseRule, type CompiledRule } from "./rules.ts";

const LINES = 1_000;
/** What comes after `echo `: pieces that may make a reader think the rest is quoted, commented or literal. */
const OPENERS = [
  "a",
  " ",
  "#",
  " #",
  "'",
  '"',
  "`",
  "\\`",
  "$(",
  "$( #",
  "$( # ) '",
  "`echo \\`",
  "\\",
  "<<EOF\n",
  "<<'EOF'\n",
  '<<"EOF"\n',
  "x <<EOF\n#",
  "\\\n",
  "{",
  "${x:-",
  "$'",
  "'\\''",
  "(",
  ">&2 ",
];
const SEPARATORS = ["\n", ";", "\\\n", " ", "&", "|", "\n#", "&&", ""];
const HIDDEN = ["touch PWN", "$(touch PWN)", "`touch PWN`"];
const CLOSERS = ["'", '"', "`", ")", " #'", "\nEOF", "\nEOF\n", "\\`", "}", " #", "\n'", ")'"];

/** Deterministic generator (mulberry32), so a failure reproduces. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

function generatedLines(count: number): string[] {
  const random = generator(20_260_212);
  const pick = (list: string[]) => list[Math.floor(random() * list.length)]!;
  const lines: string[] = [];
  while (lines.length < count) {
    let line = "echo ";
    for (let index = 0, pieces = 1 + Math.floor(random() * 3); index < pieces; index++) line += pick(OPENERS);
    line += pick(SEPARATORS) + pick(HIDDEN);
    for (let index = 0, pieces = Math.floor(random() * 3); index < pieces; index++) line += pick(CLOSERS);
    lines.push(line);
  }
  return lines;
}

const root = mkdtempSync(path.join(tmpdir(), "pc-shell-diff-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sandbox: SandboxState = { enabled: true, mechanism: "bubblewrap", network: false };
const allowEcho = parseRule("allow", "run_command(echo *)", "test settings") as CompiledRule;
const runCommand = createSystemTools().find((tool) => tool.definition.name === "run_command")!.definition;
const shells = ["/bin/sh", "/bin/bash"].filter((shell) => existsSync(shell));

describe("lines the engine allows by rule never run a hidden command (real sh and bash)", () => {
  it(`${LINES} generated lines`, () => {
    const engine = new PermissionEngine({ sandbox, rules: [allowEcho] });
    let allowed = 0;
    let folderIndex = 0;
    for (const line of generatedLines(LINES)) {
      const trace = engine.evaluate({
        callId: "c",
        tool: runCommand,
        input: { command: line },
        target: { cwd: root, command: line },
      });
      if (trace.decision !== "allow") continue;
      allowed++;
      for (const shell of shells) {
        const folder = path.join(root, String(folderIndex++));
        mkdirSync(folder);
        // Pipes, not "ignore": spawnSync then also waits for background children holding them (`touch &`).
        const run = spawnSync(shell, ["-c", line], { cwd: folder, timeout: 5_000, stdio: "pipe" });
        expect(run.error, `${shell} ${JSON.stringify(line)}`).toBeUndefined();
        expect(hasPwn(folder), `${shell} ran a hidden touch: ${JSON.stringify(line)}`).toBe(false);
      }
    }
    // The generator is meant to produce allowed lines too, or this test would prove nothing.
    expect(allowed).toBeGreaterThan(20);
  });
});

/** Ways to write and to reach `rm`: prefixes, spellings of the name, and what may close the prefixes. */
const RM_PREFIXES = [
  "",
  "echo a; ",
  "echo a && ",
  "echo a | ",
  "X=1 ",
  "env ",
  "env -i ",
  "command ",
  "sudo -u root ",
  "nice -n 1 ",
  "timeout 5 ",
  "xargs ",
  "exec ",
  "time ",
  "{ ",
  "( ",
  "eval ",
  "sh -c '",
  'bash -c "',
  "busybox ",
  "f() { ",
  "alias q=",
  "trap '",
  "if true; then ",
  "for i in 1; do ",
  "case a in a) ",
  "! ",
  "nohup ",
  "\\\n",
];
const RM_NAMES = [
  "rm",
  "\\rm",
  "'rm'",
  '"rm"',
  "r''m",
  'r""m',
  "/bin/rm",
  "r\\\nm",
  "$'rm'",
  "r\\m",
  "rm${x}",
  "r${x}m",
  "\\r\\m",
];
const RM_SUFFIXES = ["", "'", '"', "; }; f", " ;; esac", "; fi", "; done", ")", " }", "' EXIT", "\nq"];

describe("deny run_command(rm *) holds however rm is written (real sh and bash, bypassPermissions)", () => {
  it(`${LINES} generated lines`, () => {
    const denyRm = parseRule("deny", "run_command(rm *)", "test settings") as CompiledRule;
    const engine = new PermissionEngine({ sandbox, mode: "bypassPermissions", rules: [denyRm] });
    const random = generator(7);
    const pick = (list: string[]) => list[Math.floor(random() * list.length)]!;
    let allowed = 0;
    for (let index = 0; index < LINES; index++) {
      const line =
        pick(RM_PREFIXES) +
        pick(RM_PREFIXES) +
        pick(RM_NAMES) +
        " victim" +
        pick(RM_SUFFIXES) +
        pick(RM_SUFFIXES);
      const trace = engine.evaluate({
        callId: "c",
        tool: runCommand,
        input: { command: line },
        target: { cwd: root, command: line },
      });
      if (trace.decision !== "allow") continue;
      allowed++;
      for (const shell of shells) {
        const folder = path.join(root, `rm-${index}-${path.basename(shell)}`);
        mkdirSync(folder);
        writeFileSync(path.join(folder, "victim"), "x");
        const run = spawnSync(shell, ["-c", line], { cwd: folder, timeout: 5_000, stdio: "pipe", input: "" });
        expect(run.error, `${shell} ${JSON.stringify(line)}`).toBeUndefined();
        expect(existsSync(path.join(folder, "victim")), `${shell} ran rm: ${JSON.stringify(line)}`).toBe(
          true,
        );
      }
    }
    expect(allowed).toBeGreaterThan(5);
  });
});

function hasPwn(folder: string): boolean {
  return readdirSync(folder).some((name) => name.startsWith("PWN"));
}
