// `cli install SOURCE --layer user|project`: installs a skill, or a plugin bundle as one unit, from a .zip,
// a folder or an https:// URL; `--remove PLUGIN` removes an installed plugin. A refusal is one line on
// stderr (which entry broke which rule) and exit code 2; nothing is written.
import os from "node:os";
import type { InstallOutcome, InstallPlan } from "../protocol/install.ts";
import { installSkill, parseInstallSource } from "../skills/install-source.ts";
import { removePlugin } from "../skills/install-plugin.ts";
import { InstallRefused } from "../skills/install-tree.ts";
import type { CliArguments } from "./args.ts";
import type { CliIo } from "./io.ts";

function planLines(plan: InstallPlan): string[] {
  const lines = [
    `${plan.layer} skill "${plan.name}" → ${plan.targetDir} (${plan.files} file${plan.files === 1 ? "" : "s"}, ${plan.bytes} bytes` +
      `${plan.toolNames.length > 0 ? `, tools: ${plan.toolNames.join(", ")}` : ""})`,
  ];
  for (const entry of plan.replaces) lines.push(`  replaces ${entry.path}`);
  for (const entry of plan.shadows) lines.push(`  shadows the ${entry.source} skill ${entry.path}`);
  for (const entry of plan.shadowedBy)
    lines.push(`  note: the ${entry.source} skill ${entry.path} still wins over it (a higher layer)`);
  if (plan.plugin) {
    const { plugin } = plan;
    lines[0] = lines[0]!.replace(
      /^\S+ skill/,
      `${plan.layer} plugin (${plugin.format}${plugin.version ? ` ${plugin.version}` : ""})`,
    );
    lines.push(`  skills: ${plugin.skills.join(", ") || "none"}`);
    for (const server of plugin.mcpServers)
      lines.push(`  MCP server ${server.name} → ${plugin.settingsFile}: ${server.target}`);
    lines.push(`  data folder (\${PLUGIN_DATA}): ${plugin.dataDir}`);
    for (const warning of plugin.warnings) lines.push(`  warning: ${warning}`);
  }
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
  const target = {
    layer: install.layer,
    home: args.home ?? os.homedir(),
    ...(args.workdir !== undefined ? { workdir: args.workdir } : {}),
  };
  if (install.remove) {
    try {
      const removed = await removePlugin(install.source, target);
      io.stdout(
        args.json
          ? `${JSON.stringify(removed, null, 2)}\n`
          : `removed ${install.layer} plugin "${removed.name}" (${removed.folder}): skills ${removed.skills.join(", ") || "none"}; MCP servers ${removed.mcpServers.join(", ") || "none"}; its data folder ${removed.dataDir} was kept\n`,
      );
      return 0;
    } catch (error) {
      if (!(error instanceof InstallRefused)) throw error;
      io.stderr(`${error.message}\n`);
      return 2;
    }
  }
  let outcome: InstallOutcome;
  try {
    outcome = await installSkill(parseInstallSource(install.source), target, {
      force: install.force,
      dryRun: install.dryRun,
    });
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
