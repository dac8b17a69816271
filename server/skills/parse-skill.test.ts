import { describe, expect, it } from "vitest";
import { parseSkillMarkdown } from "./parse-skill.ts";

function expectProblem(text: string) {
  const result = parseSkillMarkdown(text);
  if (result.ok) throw new Error(`expected a problem, got a skill: ${JSON.stringify(result.skill)}`);
  return result.problem;
}

describe("parseSkillMarkdown", () => {
  it("parses a minimal skill with defaults", () => {
    const result = parseSkillMarkdown(
      "---\nname: review\ndescription: Review code.\n---\n\n# Review\nSteps.\n",
    );
    expect(result).toEqual({
      ok: true,
      skill: {
        meta: {
          name: "review",
          description: "Review code.",
          tools: [],
          mode: "shared",
          history: "recent",
          extra: {},
        },
        body: "# Review\nSteps.",
        frontmatter: { keyLines: { name: 2, description: 3 }, notes: [] },
        data: { name: "review", description: "Review code." },
      },
    });
  });

  it("keeps unknown keys in extra; allowed-tools is pre-approval, never the dependency list", () => {
    const result = parseSkillMarkdown(
      "---\nname: a\ndescription: d\nlicense: MIT\nallowed-tools: Read Bash(git add:*) read_file\nmetadata:\n  owner: team\n---\nbody\n",
    );
    if (!result.ok) throw new Error(result.problem.reason);
    expect(result.skill.meta.tools).toEqual([]);
    expect(result.skill.meta.allowedTools).toEqual(["Read", "Bash(git add:*)", "read_file"]);
    expect(result.skill.meta.extra).toEqual({
      license: "MIT",
      "allowed-tools": "Read Bash(git add:*) read_file",
      metadata: { owner: "team" },
    });
  });

  it("accepts allowed-tools as a list or of any type (a lint note, not a rejection); tools stays the dependency list", () => {
    const list = parseSkillMarkdown(
      '---\nname: a\ndescription: d\nallowed-tools: [Read, "Bash(npm run build)"]\n---\nbody',
    );
    expect(list.ok && list.skill.meta.allowedTools).toEqual(["Read", "Bash(npm run build)"]);
    expect(list.ok && list.skill.meta.tools).toEqual([]);
    const both = parseSkillMarkdown(
      "---\nname: a\ndescription: d\ntools: [run_command]\nallowed-tools: read_file\n---\nbody",
    );
    expect(both.ok && both.skill.meta.tools).toEqual(["run_command"]);
    expect(both.ok && both.skill.meta.allowedTools).toEqual(["read_file"]);
    const odd = parseSkillMarkdown("---\nname: a\ndescription: d\nallowed-tools: {Read: yes}\n---\nbody");
    expect(odd.ok && odd.skill.meta.allowedTools).toEqual([]);
  });

  it("reads Claude Code's invocation keys and when_to_use; a non-boolean is a note, not a rejection", () => {
    const result = parseSkillMarkdown(
      "---\nname: a\ndescription: Deploys.\ndisable-model-invocation: true\nuser-invocable: false\nwhen_to_use: When the user says ship it.\n---\nbody",
    );
    if (!result.ok) throw new Error(result.problem.reason);
    expect(result.skill.meta).toMatchObject({
      invocation: { model: false, user: false },
      whenToUse: "When the user says ship it.",
    });
    const odd = parseSkillMarkdown("---\nname: a\ndescription: d\nuser-invocable: maybe\n---\nbody");
    if (!odd.ok) throw new Error(odd.problem.reason);
    expect(odd.skill.meta.invocation).toBeUndefined();
    expect(odd.skill.frontmatter.notes).toEqual([
      expect.objectContaining({ rule: "claude-code-key-type", profile: "claude-code", line: 4 }),
    ]);
  });

  it("notes an unquoted ' #' that YAML turns into a comment, with the file line", () => {
    const result = parseSkillMarkdown("---\nname: a\ndescription: Formats C# code # and F# too\n---\nbody");
    if (!result.ok) throw new Error(result.problem.reason);
    expect(result.skill.meta.description).toBe("Formats C# code");
    expect(result.skill.frontmatter.notes).toEqual([
      expect.objectContaining({ rule: "yaml-comment-in-value", line: 3, profile: "playground" }),
    ]);
    const quoted = parseSkillMarkdown('---\nname: a\ndescription: "Formats C# code # and F#"\n---\nbody');
    expect(quoted.ok && quoted.skill.frontmatter.notes).toEqual([]);
  });

  it("reads mode, history and model", () => {
    const result = parseSkillMarkdown(
      "---\nname: a\ndescription: d\nmode: isolated\nhistory: none\nmodel: small\n---\nbody",
    );
    expect(result.ok && result.skill.meta).toMatchObject({
      mode: "isolated",
      history: "none",
      model: "small",
    });
  });

  it("tolerates a BOM and CRLF line endings", () => {
    const result = parseSkillMarkdown(
      "\uFEFF---\r\nname: a\r\ndescription: d\r\n---\r\nline one\r\nline two\r\n",
    );
    expect(result.ok && result.skill.body).toBe("line one\nline two");
  });

  it("rejects a file without frontmatter", () => {
    expect(expectProblem("# Just markdown\n").reason).toMatch(/no YAML frontmatter/);
  });

  it("says an opened frontmatter is never closed, instead of claiming there is none", () => {
    const problem = expectProblem("---\nname: a\ndescription: d\nbody with no closing fence");
    expect(problem.reason).toMatch(/opened by '---' on line 1 is never closed/);
    expect(problem.reason).toMatch(/add a line '---'/);
    expect(problem.line).toBe(1);
  });

  it("gives field problems the file line of the field (or of the frontmatter) and a fix", () => {
    const mode = expectProblem("---\nname: a\ndescription: d\nmode: solo\n---\nbody");
    expect(mode).toMatchObject({ line: 4, column: 1 });
    const tools = expectProblem("\uFEFF---\r\nname: a\r\ndescription: d\r\n\r\ntools: {a: 1}\r\n---\r\nbody");
    expect(tools).toMatchObject({ line: 5, column: 1 });
    const emptyName = expectProblem("---\nname: ''\ndescription: d\n---\nbody");
    expect(emptyName.line).toBe(2);
    const noName = expectProblem("---\ndescription: d\n---\nbody");
    expect(noName).toMatchObject({ line: 1 });
    expect(noName.reason).toMatch(/add a line "name: <skill-name>"/);
    const mappingDescription = expectProblem("---\nname: a\ndescription: {x: 1}\n---\nbody");
    expect(mappingDescription).toMatchObject({ line: 3 });
    expect(mappingDescription.reason).toMatch(/must be text/);
    const emptyBody = expectProblem("---\nname: a\ndescription: d\n---\n  \n\n");
    expect(emptyBody.line).toBe(5);
    expect(emptyBody.reason).toMatch(/write the SOP/);
  });

  it("reports bad YAML with the file's line and column", () => {
    const problem = expectProblem("---\nname: a\ndescription: [unclosed\n---\nbody");
    expect(problem.reason).toMatch(/invalid YAML frontmatter/);
    expect(problem.line).toBe(3);
    expect(problem.column).toBeGreaterThan(0);
    const duplicate = expectProblem("---\nname: a\ndescription: d\nname: b\n---\nbody");
    expect(duplicate.line).toBe(4);
  });

  it("rejects empty name, empty description and empty body", () => {
    expect(expectProblem("---\nname: ''\ndescription: d\n---\nbody").reason).toMatch(/"name"/);
    expect(expectProblem("---\ndescription: d\n---\nbody").reason).toMatch(/"name"/);
    expect(expectProblem("---\nname: a\ndescription:   \n---\nbody").reason).toMatch(/"description"/);
    expect(expectProblem("---\nname: a\ndescription: d\n---\n  \n\n").reason).toMatch(/body/);
  });

  it("rejects a name with a line break or control character", () => {
    expect(expectProblem('---\nname: "a\\nb"\ndescription: d\n---\nbody').reason).toMatch(/one line/);
  });

  it("rejects a frontmatter that is not a mapping, and bad mode/history/tools", () => {
    expect(expectProblem("---\n- a\n- b\n---\nbody").reason).toMatch(/mapping/);
    expect(expectProblem("---\nname: a\ndescription: d\nmode: solo\n---\nbody").reason).toMatch(/"mode"/);
    expect(expectProblem("---\nname: a\ndescription: d\nhistory: all\n---\nbody").reason).toMatch(
      /"history"/,
    );
    expect(expectProblem("---\nname: a\ndescription: d\ntools: {a: 1}\n---\nbody").reason).toMatch(/"tools"/);
  });
});
