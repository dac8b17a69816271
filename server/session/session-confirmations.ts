// Sessions the user must confirm before they exist: a workdir that is `/` or contains the home folder
// (every key and project in reach of the agent's tools), and bypassPermissions (nothing asks). Without
// the confirmation the command is refused with `confirmation_required`, saying what to confirm and why.
import { homedir } from "node:os";
import { PlaygroundError } from "../errors/index.ts";
import { folderRealpath } from "../permission/trust.ts";
import type { PermissionMode } from "../protocol/model.ts";
import type { SessionConfirmation } from "../protocol/sandbox.ts";
import { isInside } from "../tools/confine.ts";

export interface NeededConfirmation {
  confirmation: SessionConfirmation;
  reason: string;
}

/** What a new session on `workdir` (a realpath) needs confirmed; `homes`: the real home and `--home`. */
export async function confirmationsForCreate(options: {
  workdir: string;
  permissionMode: PermissionMode;
  homes: string[];
}): Promise<NeededConfirmation[]> {
  const needed: NeededConfirmation[] = [];
  const broad = await broadWorkdirReason(options.workdir, options.homes);
  if (broad) needed.push({ confirmation: "broad_workdir", reason: broad });
  if (options.permissionMode === "bypassPermissions") needed.push(bypassConfirmation());
  return needed;
}

/** Switching an existing session to bypassPermissions needs the same confirmation as creating one. */
export function confirmationsForModeSwitch(
  from: PermissionMode,
  to: PermissionMode | undefined,
): NeededConfirmation[] {
  return to === "bypassPermissions" && from !== "bypassPermissions" ? [bypassConfirmation()] : [];
}

function bypassConfirmation(): NeededConfirmation {
  return {
    confirmation: "bypass_permissions",
    reason:
      "permissionMode bypassPermissions runs every tool call (commands, writes, skill tools) without asking; " +
      "only the dangerous-command list and deny rules still refuse",
  };
}

async function broadWorkdirReason(workdir: string, homes: string[]): Promise<string | undefined> {
  if (workdir === "/")
    return "the workdir is / (every file on this machine is in reach of the agent's tools)";
  for (const home of new Set(
    await Promise.all([homedir(), ...homes].map((folder) => folderRealpath(folder))),
  )) {
    if (isInside(workdir, home))
      return `the workdir ${workdir} contains the home folder ${home} (your keys, shell profile and every project)`;
  }
  return undefined;
}

/** Throws `confirmation_required` naming every missing confirmation and why; `details.confirm` lists them. */
export function requireConfirmations(
  needed: NeededConfirmation[],
  given: readonly SessionConfirmation[] | undefined,
  command: string,
): void {
  const missing = needed.filter((item) => !given?.includes(item.confirmation));
  if (missing.length === 0) return;
  const names = missing.map((item) => item.confirmation);
  throw new PlaygroundError(
    "confirmation_required",
    `${command} needs a confirmation: ${missing.map((item) => item.reason).join("; ")}. ` +
      `Send it again with confirm: ${JSON.stringify(names)} once the user has confirmed.`,
    { confirm: names },
  );
}
