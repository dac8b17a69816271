import { describe, expect, it } from "vitest";
import { compileValidator, formatIssues, mustCompile } from "./validator.ts";

describe("compileValidator (the one ajv instance)", () => {
  const schema = {
    type: "object",
    properties: { mode: { enum: ["a", "b"] }, kind: { const: "x" }, count: { type: "integer" } },
    required: ["count"],
    additionalProperties: false,
  };

  it("returns the value on success and every issue, with the allowed values, on failure", () => {
    const validate = mustCompile<{ count: number }>(schema, { root: "(input)" });
    expect(validate({ count: 2 })).toEqual({ ok: true, value: { count: 2 } });
    const failed = validate({ mode: "c", kind: "y", extra: 1 });
    expect(failed.ok).toBe(false);
    if (failed.ok) return;
    expect(failed.message).toContain('/mode must be one of "a", "b"');
    expect(failed.message).toContain('/kind must be "x"');
    expect(failed.message).toContain('(input) has an unknown field "extra"');
    expect(failed.message).toContain("(input) must have required property 'count'");
    expect(failed.issues.find((issue) => issue.keyword === "additionalProperties")).toMatchObject({
      path: "",
      field: "extra",
    });
  });

  it("reports a schema that does not compile as a result, not a throw", () => {
    const compiled = compileValidator({ type: "object", properties: { a: { type: "no-such-type" } } });
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) expect(compiled.message).toMatch(/type/);
    expect(() => mustCompile({ type: "nope" })).toThrow(/internal schema does not compile/);
  });

  it("compiles the same schema text once, and a schema with $id can be compiled again", () => {
    const withId = { $id: "https://example.test/s", type: "object" };
    const first = compileValidator(withId);
    const second = compileValidator({ ...withId });
    expect(first.ok && second.ok).toBe(true);
    if (first.ok && second.ok) expect(second.validator({})).toEqual({ ok: true, value: {} });
  });

  it("formats at most `limit` issues and says how many more", () => {
    const issues = Array.from({ length: 7 }, (_, index) => ({
      path: `/${index}`,
      keyword: "type",
      message: "must be string",
    }));
    expect(formatIssues(issues, "(root)", 2)).toBe("/0 must be string; /1 must be string; and 5 more");
  });
});
