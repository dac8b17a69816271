import { describe, expect, it } from "vitest";
import { PatternError } from "../protocol/linear-regex.ts";
import { escapeGlob, globToRegExp } from "./glob.ts";

// The glob language of permission rules, list_files and search_code: picomatch's syntax, with the
// departures glob.ts documents (dot files and `.`/`..` segments match like any name; `()|"` literal;
// command style gives `/` no meaning). Timing under hostile globs is server/hostile-patterns.test.ts's.

const path = (pattern: string, text: string) => globToRegExp(pattern).test(text);
const command = (pattern: string, text: string) =>
  globToRegExp(pattern, { separatorAware: false }).test(text);

describe("path globs (file rules, list_files, search_code)", () => {
  it.each([
    ["src/**", "src/deep/a.ts", true],
    ["src/**", "src", false],
    ["src/**", "lib/a.ts", false],
    ["src/*", "src/a.ts", true],
    ["src/*", "src/deep/a.ts", false],
    ["**/*.ts", "a.ts", true],
    ["**/*.ts", "src/deep/a.ts", true],
    ["**/*.ts", "src/a.tsx", false],
    ["a/**/b", "a/b", true],
    ["a/**/b", "a/x/y/b", true],
    ["*.{md,txt}", "notes.txt", true],
    ["*.{md,{json,yaml}}", "a.yaml", true],
    ["file?.js", "file1.js", true],
    ["file?.js", "file/.js", false],
    ["[ab].c", "b.c", true],
    ["[!ab].c", "b.c", false],
    ["[!ab].c", "x.c", true],
    ["[[:digit:]]x", "5x", true],
    ["log{1..12}.txt", "log11.txt", true],
    ["log{1..12}.txt", "log13.txt", false],
    ["v{a..c}", "vb", true],
    ["a\\*b", "a*b", true],
    ["a\\*b", "axb", false],
  ])("%s vs %s → %s", (pattern, text, expected) => {
    expect(path(pattern, text)).toBe(expected);
  });

  it("dot files and `.`/`..` segments match like any other name, so a deny rule cannot be dodged by them", () => {
    expect(path("*", ".env")).toBe(true);
    expect(path("**/.env", "a/.env")).toBe(true);
    expect(path("secrets/**", "secrets/../secrets/key")).toBe(true);
    expect(path("src/**", "src/./a")).toBe(true);
  });

  it("`**` spans folders only alone in a segment (picomatch: `a**` is `a*`)", () => {
    expect(path("a**", "ab")).toBe(true);
    expect(path("a**", "a/b")).toBe(false);
    expect(path("***", "a")).toBe(true);
    expect(path("***", "a/b")).toBe(false);
  });

  it("three stars are one, and the text after them stays literal", () => {
    expect(path("***..", "x..")).toBe(true);
    expect(path("***..", ".a")).toBe(false);
  });

  it("parentheses, `|`, double quotes, a leading `!` and extglob characters are literal", () => {
    expect(path("a|b", "a|b")).toBe(true);
    expect(path("a|b", "a")).toBe(false);
    expect(path("(x|y).ts", "(x|y).ts")).toBe(true);
    expect(path("(x|y).ts", "x.ts")).toBe(false);
    expect(path('"*"', '"a"')).toBe(true);
    expect(path("!a", "!a")).toBe(true);
    expect(path("!a", "b")).toBe(false);
    expect(path("+(a)", "+(a)")).toBe(true);
    expect(path("@(a|b)", "a")).toBe(false);
  });
});

describe("command globs (run_command rules, tool names)", () => {
  it.each([
    ["git *", "git add src/x.ts", true],
    ["git status*", "git status --short src/", true],
    ["git status*", "git stash", false],
    ["rm *", "rm -rf a/../b", true],
    ["rm ?", "rm /", true],
    ["./build.sh *", "./build.sh --all", true],
    ["./build.sh *", "build.sh --all", false],
    ["/bin/* x", "/bin/rm x", true],
    ["cat [/a]x", "cat /x", true],
    ["mcp__notes__*", "mcp__notes__save", true],
    ["git status:*", "git status:x", true],
  ])("%s vs %s → %s", (pattern, text, expected) => {
    expect(command(pattern, text)).toBe(expected);
  });

  it("`|` in a rule is the character, never an alternative that allows other commands", () => {
    expect(command("grep a|b *", "grep a|b notes.txt")).toBe(true);
    expect(command("grep a|b *", "b --anything")).toBe(false);
    expect(command("grep (a|b) *", "grep a x")).toBe(false);
  });

  it("a pattern holding U+0001 (the stand-in for `/`) is refused", () => {
    expect(() => globToRegExp("a\u0001b", { separatorAware: false })).toThrow(PatternError);
  });
});

describe("globs that make no expression are errors with the reason", () => {
  it.each([
    ["[z-a]", /not a valid regular expression/],
    ["a{b", /not a valid regular expression/],
    ["{1..9..2}", /range with a step/],
    ["{ab..cd}", /not a range/],
  ])("%s", (pattern, reason) => {
    const error = (() => {
      try {
        globToRegExp(pattern);
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(PatternError);
    expect((error as PatternError).pattern).toBe(pattern);
    expect((error as PatternError).message).toMatch(reason);
  });
});

describe("escapeGlob", () => {
  const texts = [
    "git commit -m fix*",
    "echo {a,b} [x] ?",
    'grep a|b (c) "d"',
    "!negated +(ext) @(x)",
    "a\\b\\",
    "x/./../y?",
    "***..",
    "$HOME ^x",
  ];
  it.each(texts)("%s matches only itself, in both styles", (text) => {
    for (const separatorAware of [true, false]) {
      const regex = globToRegExp(escapeGlob(text), { separatorAware });
      expect(regex.test(text)).toBe(true);
      expect(regex.test(`${text}x`)).toBe(false);
      const altered = text.replace(/[*?{}[\]|()"!\\$^]/, "z");
      expect(altered).not.toBe(text);
      expect(regex.test(altered)).toBe(false);
    }
  });
});
