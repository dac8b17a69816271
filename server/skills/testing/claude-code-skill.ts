// A skill written the way Claude Code skills are published (written for these tests, not copied): its
// allowed-tools use Claude Code's names, it has when_to_use, argument-hint, license and metadata, its body
// has `###` headings and a `---` rule, and its code spans look like file names without being any.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

export const GIT_DIGEST_SKILL_MD = `---
name: git-digest
description: Summarise recent git history into a short digest of what changed and why.
when_to_use: When the user asks what changed lately, or wants a weekly summary of commits.
allowed-tools: Read Grep Glob Bash(git log:*) WebFetch
argument-hint: "[since]"
license: Apache-2.0
metadata:
  author: playground-tests
---
# Git digest

### Steps
1. Read [the digest format](references/format.md) before writing anything.
2. Run \`git log --since=$ARGUMENTS --pretty=%s\` and group subjects by \`^(feat|fix)(\\(.+\\))?:\`.
3. Count them with \`node \${CLAUDE_SKILL_DIR}/scripts/group.mjs\`.

---

### Output
A list per group, newest first.
`;

/** Its files besides SKILL.md. */
export const GIT_DIGEST_FILES: Readonly<Record<string, string>> = {
  "references/format.md": "# Format\nOne line per commit.\n",
  "scripts/group.mjs": "console.log('grouped');\n",
};

/** Writes the skill as `<parent>/git-digest/` (SKILL.md with `skillMd`, default the one above). Returns the folder. */
export async function writeGitDigestSkill(parent: string, skillMd = GIT_DIGEST_SKILL_MD): Promise<string> {
  const folder = path.join(parent, "git-digest");
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, "SKILL.md"), skillMd);
  for (const [name, content] of Object.entries(GIT_DIGEST_FILES)) {
    await mkdir(path.dirname(path.join(folder, name)), { recursive: true });
    await writeFile(path.join(folder, name), content);
  }
  return folder;
}
