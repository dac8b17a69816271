// `cli install SOURCE --layer user|project`: installs a skill from a .zip, a folder or an https:// URL.
// A refusal is one line on stderr (which entry broke which rule) and exit code 2; nothing is written.
import os from "node:os";
import type { InstallOutcome, InstallPlan } from "../protocol/install.ts";
import { installSkill, parseInstallSource } from "../skills/install-source.ts";
import { InstallRefused } from "../skills/install-tree.ts";
import type { CliArguments } from "./args.ts";
import type { CliIo } from "./io.ts";

function planLines(plan: InstallPlan): string[] {
  const lines = [
    `${plan.layer} skill "${plan.name}" → ${plan.targetDir} (${plan.files} files, ${plan.bytes} bytes` +
      `${plan.toolNames.length > 0 ? `, tools: ${plan.toolNames.join(", ")}` : ""})`,
  ];
  for (const entry of plan.replaces) lines.push(`  replaces ${entry.path}`);
  for (const entry of plan.shadows) lines.push(`  shadows the ${entry.source} skill ${entry.path}`);
  for (const entry of plan.shadowedBy)
    lines.push(`  note: the ${entry.source} skill ${entry.path} still wins over it (a higher layer)`);
  return lines;
}

export function formatInstall(outcome: InstallOutcome, dryRun: boolean): string {
  if (!outcome.ok) return outcome.refusal.message;
  const [first, ...rest] = planLines(outcome.plan);
  const verb = dryRun
    ? outcome.plan.needsForce
      ? "would replace (needs --force):"
      : "would install:"
    : "installed";
  return [`${verb} ${first}`, ...rest].join("\n");
}

/** Runs `install`; returns the exit code (0 installed, 2 refused). */
export async function runInstallCommand(args: CliArguments, io: CliIo): Promise<number> {
  const install = args.install!;
  let outcome: InstallOutcome;
  try {
    outcome = await installSkill(
      parseInstallSource(install.source),
      {
        layer: install.layer,
        home: args.home ?? os.homedir(),
        ...(args.workdir !== undefined ? { workdir: args.workdir } : {}),
      },
      { force: install.force, dryRun: install.dryRun },
    );
  } catch (error) {
    if (!(error instanceof InstallRefused)) throw error;
    outcome = { ok: false, refusal: { entry: error.entry, rule: error.rule, message: error.message } };
  }
  if (args.json) io.stdout(`${JSON.stringify(outcome, null, 2)}\n`);
  if (!outcome.ok) {
    io.stderr(`${outcome.refusal.message}\n`);
    return 2;
  }
  if (!args.json) io.stdout(`${formatInstall(outcome, install.dryRun)}\n`);
  return 0;
}
