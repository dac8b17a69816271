import { describe, expect, it } from "vitest";
import { linearRegExp, PatternError, tryLinearRegExp } from "./linear-regex.ts";

function refusal(source: string, flags = ""): string {
  const compiled = tryLinearRegExp(source, flags);
  if (compiled.ok) throw new Error(`${source} compiled`);
  expect(compiled.error).toBeInstanceOf(PatternError);
  return compiled.error.message;
}

describe("linearRegExp", () => {
  it("refuses backreferences, lookaround and huge repeat counts with the reason, and invalid syntax as such", () => {
    expect(refusal("(a)\\1")).toMatch(/RE2.*: \\1 is a backreference/);
    expect(refusal("(?<x>a)\\k<x>", "u")).toMatch(/\\k<…> is a backreference/);
    expect(refusal("a(?=b)")).toMatch(/\(\?=…\) is a lookahead/);
    expect(refusal("a(?!b)")).toMatch(/\(\?!…\) is a lookahead/);
    expect(refusal("(?<=a)b")).toMatch(/\(\?<=…\) is a lookbehind/);
    expect(refusal("(?<!a)b")).toMatch(/\(\?<!…\) is a lookbehind/);
    expect(refusal("a{1001}")).toMatch(/repeat counts over 1000/);
    expect(refusal("(")).toMatch(/is not a valid regular expression/);
    expect(refusal("a", "g")).toMatch(/flag "g"/);
  });

  it("reads what is escaped or inside a class as JavaScript does", () => {
    expect(linearRegExp("[(?=]").test("=")).toBe(true);
    expect(linearRegExp("\\(\\?=x\\)").test("(?=x)")).toBe(true);
    expect(linearRegExp("[\\b]").test("\b")).toBe(true);
    expect(linearRegExp("(?<year>\\d{4})-\\u00e9", "u").test("2026-é")).toBe(true);
    expect(linearRegExp("^[^\\s]$").test("\u2003")).toBe(false);
  });

  it("applies the flags i, m, s", () => {
    expect(linearRegExp("^abc$", "i").test("ABC")).toBe(true);
    expect(linearRegExp("^b$").test("a\nb")).toBe(false);
    expect(linearRegExp("^b$", "m").test("a\nb")).toBe(true);
    expect(linearRegExp("a.b").test("a\nb")).toBe(false);
    expect(linearRegExp("a.b", "s").test("a\nb")).toBe(true);
  });
});
