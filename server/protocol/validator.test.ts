import { describe, expect, it } from "vitest";
import {
  compileValidator,
  describeSchemaProblem,
  dialectOf,
  formatIssues,
  mustCompile,
  compileSoon,
} from "./validator.ts";

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
    // Compiled on first use (compileOwnSchemas compiles them all: own-schemas.test.ts).
    expect(() => mustCompile({ type: "nope" })({})).toThrow(/internal schema does not compile/);
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

describe("dialects, as schemas declare them", () => {
  const accepts = (schema: object, value: unknown) => {
    const compiled = compileValidator(schema);
    if (!compiled.ok) throw new Error(compiled.message);
    return compiled.validator(value).ok;
  };

  it("2020-12: $defs and $ref, prefixItems with items: false, dependentRequired, unevaluatedProperties", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $defs: { id: { type: "string", pattern: "^[a-z]+-\\d+$" } },
      type: "object",
      allOf: [{ properties: { extra: { type: "boolean" } } }],
      properties: {
        id: { $ref: "#/$defs/id" },
        pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false },
        card: { type: "string" },
        expiry: { type: "string" },
      },
      dependentRequired: { card: ["expiry"] },
      unevaluatedProperties: false,
    };
    expect(accepts(schema, { id: "ab-1", pair: ["x", 2], card: "c", expiry: "e", extra: true })).toBe(true);
    expect(accepts(schema, { id: "AB" })).toBe(false);
    expect(accepts(schema, { pair: ["x", 2, 3] })).toBe(false);
    expect(accepts(schema, { pair: [1, 2] })).toBe(false);
    expect(accepts(schema, { card: "c" })).toBe(false);
    const unknown = mustCompile(schema)({ other: 1 });
    expect(!unknown.ok && unknown.message).toBe('(root) has an unknown field "other"');
  });

  it("2019-09 by its own class; draft-07 (http or https) with tuple items and dependencies; draft-06 as draft-07", () => {
    const recent = {
      $schema: "https://json-schema.org/draft/2019-09/schema#",
      properties: { a: { type: "string" } },
      dependentRequired: { a: ["b"] },
      unevaluatedProperties: false,
    };
    expect(accepts(recent, { a: "x", b: 1 })).toBe(false); // b is not evaluated
    expect(accepts(recent, { a: "x" })).toBe(false);
    expect(accepts(recent, {})).toBe(true);
    for (const uri of [
      "http://json-schema.org/draft-07/schema#",
      "https://json-schema.org/draft-07/schema",
      "http://json-schema.org/draft-06/schema#",
    ]) {
      const legacy = {
        $schema: uri,
        properties: { pair: { items: [{ type: "string" }], additionalItems: false } },
        dependencies: { card: ["expiry"] },
      };
      expect(accepts(legacy, { pair: ["x"] }), uri).toBe(true);
      expect(accepts(legacy, { pair: ["x", 1] }), uri).toBe(false);
      expect(accepts(legacy, { card: "c" }), uri).toBe(false);
    }
  });

  it("reads an undeclared schema as 2020-12, unless it uses draft-07's shapes (names of properties are not shapes)", () => {
    expect(dialectOf({ properties: { p: { prefixItems: [{ type: "number" }] } } })).toEqual({
      ok: true,
      dialect: "2020-12",
    });
    expect(dialectOf({ properties: { p: { items: [{ type: "number" }] } } })).toEqual({
      ok: true,
      dialect: "draft-07",
    });
    expect(dialectOf({ properties: { dependencies: { type: "object" }, items: { type: "array" } } })).toEqual(
      {
        ok: true,
        dialect: "2020-12",
      },
    );
    expect(dialectOf({ enum: [{ additionalItems: 1 }] })).toEqual({ ok: true, dialect: "2020-12" });
    expect(
      accepts({ properties: { p: { prefixItems: [{ type: "number" }], items: false } } }, { p: [1, 2] }),
    ).toBe(false);
  });

  it("refuses a dialect it does not validate, naming $schema", () => {
    const compiled = compileValidator({ $schema: "http://json-schema.org/draft-04/schema#", type: "object" });
    expect(compiled).toMatchObject({ ok: false, pointer: "/$schema" });
    expect(!compiled.ok && compiled.message).toMatch(/draft-04.*not validated here/);
  });

  it("checks formats", () => {
    const schema = {
      properties: { email: { format: "email" }, day: { format: "date" }, site: { format: "uri" } },
    };
    expect(
      accepts(schema, { email: "ada@example.org", day: "2026-12-03", site: "https://example.org/" }),
    ).toBe(true);
    expect(accepts(schema, { email: "ada" })).toBe(false);
    expect(accepts(schema, { day: "2026-02-30" })).toBe(false);
    expect(accepts(schema, { site: "not a uri" })).toBe(false);
  });
});

describe("patterns run in the linear-time engine (S18)", () => {
  const outside = (schema: object) => {
    const compiled = compileValidator(schema);
    if (!compiled.ok) throw new Error(compiled.message);
    return compiled.validator;
  };

  it("refuses what RE2 cannot run, naming the pattern's place in the schema — never a RegExp instead", () => {
    const backreference = compileValidator({ properties: { code: { type: "string", pattern: "^(a)\\1$" } } });
    expect(backreference).toMatchObject({ ok: false, pointer: "/properties/code/pattern" });
    expect(!backreference.ok && describeSchemaProblem(backreference)).toMatch(
      /^\/properties\/code\/pattern: pattern "\^\(a\)\\\\1\$" cannot run in the linear-time regex engine \(RE2\).*backreference/,
    );
    const lookahead = compileValidator({ patternProperties: { "^(?!x)/y": { type: "string" } } });
    expect(lookahead).toMatchObject({ ok: false, pointer: "/patternProperties/^(?!x)~1y" });
    expect(!lookahead.ok && lookahead.message).toMatch(/lookahead/);
  });

  it("keeps each schema's patterns apart (ajv keys compiled patterns by their text)", () => {
    const digits = outside({ type: "string", pattern: "^\\d+$" });
    const letters = outside({ type: "string", pattern: "^[a-z]+$" });
    const keyed = outside({ type: "object", patternProperties: { "^x-": { type: "integer" } } });
    expect([digits("123").ok, digits("abc").ok]).toEqual([true, false]);
    expect([letters("abc").ok, letters("123").ok]).toEqual([true, false]);
    expect([keyed({ "x-a": 1 }).ok, keyed({ "x-a": "1" }).ok, keyed({ y: "1" }).ok]).toEqual([
      true,
      false,
      true,
    ]);
  });

  it("matches as JavaScript does: `.` stops at line ends, `\\s` is Unicode whitespace, flags u", () => {
    const line = outside({ type: "string", pattern: "^.+$" });
    expect([line("one line").ok, line("two\nlines").ok, line("emoji 😀").ok]).toEqual([true, false, true]);
    const word = outside({ type: "string", pattern: "^\\S+$" });
    expect([word("a\u00a0b").ok, word("a\u3000").ok, word("ab").ok]).toEqual([false, false, true]);
  });
});

describe("compileSoon (own schemas compiled ahead of their first use)", () => {
  const schemaOf = (field: string) => ({
    type: "object",
    properties: { [field]: { type: "string" } },
    required: [field],
  });

  it("compiles each validator in its own turn, skips one compiled already, and validates the same after", async () => {
    const first = mustCompile(schemaOf("soonA"));
    const second = mustCompile(schemaOf("soonB"));
    const third = mustCompile(schemaOf("soonE"));
    expect(first({ soonA: "x" }).ok).toBe(true); // compiled by its first use
    const order: string[] = [];
    const warming = compileSoon([first, second, third]);
    // Queued after the first compile's turn: it runs before the second compile, in the loop's next turn.
    setImmediate(() => order.push("other work"));
    await warming.done.then((count) => order.push(`compiled ${count}`));
    expect(order).toEqual(["other work", "compiled 2"]);
    expect(second({ soonB: 1 }).ok).toBe(false);
    expect(second({ soonB: "y" }).ok).toBe(true);
    expect(await compileSoon([first, second, third]).done).toBe(0);
  });

  it("with `warm`, runs each validator it compiles on its sample that many times, and one without a sample not at all", async () => {
    const withSample = mustCompile(schemaOf("soonF"));
    const without = mustCompile(schemaOf("soonG"));
    const asked: unknown[] = [];
    const sampled = new Map<unknown, number>();
    const sample = { soonF: "sample" };
    const counting = new Proxy(sample, {
      get(target, key, receiver) {
        if (key === "soonF") sampled.set(withSample, (sampled.get(withSample) ?? 0) + 1);
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const done = await compileSoon([withSample, without], {
      warm: {
        runs: 7,
        sample: (validator) => {
          asked.push(validator);
          return validator === withSample ? counting : undefined;
        },
      },
    }).done;
    expect(done).toBe(2);
    expect(asked).toEqual([withSample, without]);
    // Each run reads the required field at least once.
    expect(sampled.get(withSample)).toBeGreaterThanOrEqual(7);
    expect(withSample({ soonF: 1 }).ok).toBe(false);
  });

  it("compiles nothing more once stopped", async () => {
    const warming = compileSoon([mustCompile(schemaOf("soonC")), mustCompile(schemaOf("soonD"))]);
    warming.stop();
    expect(await warming.done).toBe(0);
  });

  it("leaves a schema that does not compile to throw at its first use", async () => {
    const broken = mustCompile({ type: "nope-soon" });
    expect(await compileSoon([broken]).done).toBe(0);
    expect(() => broken({})).toThrow(/internal schema does not compile/);
  });
});
