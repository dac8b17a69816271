// A slash invocation as the chat shows it: the user typed `/skill args`, and the playground sent the
// skill's SOP below it in the same message (server/runner/slash.ts: the typed command, a blank line, the
// SOP). The chat shows what was typed as a compact chip and keeps the SOP one click away.

export interface SlashTurn {
  skill: string;
  args: string;
  /** The SOP sent with the command; empty when the message holds the command only (isolated runs). */
  sop: string;
}

/**
 * Splits a user message into the typed command and the SOP below it. `skill` is the run's own word for
 * it (run_started); without it (a message from a saved history) the command must name a known skill.
 */
export function slashTurn(
  text: string,
  skill: string | undefined,
  skillNames: readonly string[],
): SlashTurn | undefined {
  const match = /^\/([A-Za-z0-9][A-Za-z0-9._-]*)(?=\s|$)/.exec(text);
  if (!match) return undefined;
  const name = match[1];
  if (skill !== undefined ? name !== skill : !skillNames.includes(name)) return undefined;
  const split = text.indexOf("\n\n");
  const command = split === -1 ? text : text.slice(0, split);
  return {
    skill: name,
    args: command.slice(match[0].length).trim(),
    sop: split === -1 ? "" : text.slice(split + 2).trim(),
  };
}

/** "1 line", "2 lines": a count with its noun in the right number. */
export function lineCount(text: string): number {
  return text === "" ? 0 : text.split("\n").length;
}
