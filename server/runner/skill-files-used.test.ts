// Which files of a loaded skill a command line ran or named, read with the shell parser: the program, an
// interpreter's script, other arguments; relative words against the directory the command runs in (and a
// `cd` before it); words the shell would expand are not guessed at.
import { describe, expect, it } from "vitest";
import { skillFilesUsed } from "./skill-files-used.ts";

const roots = [
  { skill: "csv-report", root: "/opt/skills/csv-report", given: "/home/u/skills/csv-report" },
  { skill: "review", root: "/work/.PseudoClaude/skills/review", given: "/work/.PseudoClaude/skills/review" },
];

describe("skillFilesUsed", () => {
  it("names the script an interpreter runs, and the files it is given", () => {
    expect(
      skillFilesUsed(
        "node --no-warnings /opt/skills/csv-report/scripts/column-types.mjs /opt/skills/csv-report/reference/types.json data/sales.csv",
        "/work",
        roots,
      ),
    ).toEqual([
      { skill: "csv-report", path: "scripts/column-types.mjs", how: "ran" },
      { skill: "csv-report", path: "reference/types.json", how: "named" },
    ]);
  });

  it("resolves relative words against the command's directory, a cd in the line and the folder as the catalog found it", () => {
    // A skill tool runs in its own folder: `node profile-csv.mjs`.
    expect(skillFilesUsed("node profile-csv.mjs", "/opt/skills/csv-report", roots)).toEqual([
      { skill: "csv-report", path: "profile-csv.mjs", how: "ran" },
    ]);
    expect(
      skillFilesUsed(
        "cd /home/u/skills/csv-report && ./scripts/run.sh && cat ../csv-report/notes.md",
        "/work",
        roots,
      ),
    ).toEqual([
      { skill: "csv-report", path: "scripts/run.sh", how: "ran" },
      { skill: "csv-report", path: "notes.md", how: "named" },
    ]);
    // A project skill lives in the workdir.
    expect(skillFilesUsed("sh .PseudoClaude/skills/review/check.sh src", "/work", roots)).toEqual([
      { skill: "review", path: "check.sh", how: "ran" },
    ]);
  });

  it("finds commands inside pipelines and substitutions; ran wins over named for the same file", () => {
    expect(
      skillFilesUsed(
        "cat /opt/skills/csv-report/x.py | python3 /opt/skills/csv-report/x.py; echo $(bash /opt/skills/csv-report/y.sh)",
        "/work",
        roots,
      ),
    ).toEqual([
      { skill: "csv-report", path: "x.py", how: "ran" },
      { skill: "csv-report", path: "y.sh", how: "ran" },
    ]);
  });

  it("counts nothing outside the loaded skills' folders, expansions, globs or the folder itself", () => {
    expect(skillFilesUsed("node scripts/x.mjs", "/work", roots)).toEqual([]);
    expect(skillFilesUsed('node "$SKILL_DIR/x.mjs" /opt/skills/csv-report/*.md', "/work", roots)).toEqual([]);
    expect(skillFilesUsed("ls /opt/skills/csv-report", "/work", roots)).toEqual([]);
    expect(skillFilesUsed("cat /opt/skills/csv-report/../other/x.md", "/work", roots)).toEqual([]);
    expect(skillFilesUsed("node /opt/skills/csv-report/x.mjs", "/work", [])).toEqual([]);
  });
});
