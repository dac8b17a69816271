import { describe, expect, it } from "vitest";
import {
  escapeHiddenCharacters,
  hiddenCharactersIn,
  hiddenWarning,
  markerFor,
  splitHidden,
} from "./hidden-characters.ts";

// The Trojan Source shape: a right-to-left override and isolates make the `touch` read like a comment.
const trojan = "echo safe #\u202E\u2066; touch X\u2069\u200B\u001B[2K";

describe("hidden characters", () => {
  it("escapes bidi, zero-width and control characters as \\uXXXX markers", () => {
    expect(escapeHiddenCharacters(trojan)).toBe("echo safe #\\u202E\\u2066; touch X\\u2069\\u200B\\u001B[2K");
    expect(markerFor(0x202e)).toBe("\\u202E");
    expect(markerFor(0x1b)).toBe("\\u001B");
  });

  it("covers every range the pages promise, and nothing else", () => {
    const promised = [
      ...Array.from({ length: 0x20 }, (_, index) => index).filter((code) => code !== 0x0a && code !== 0x09),
      0x7f,
      ...Array.from({ length: 0x20 }, (_, index) => 0x80 + index),
      0x202a,
      0x202b,
      0x202c,
      0x202d,
      0x202e,
      0x2066,
      0x2067,
      0x2068,
      0x2069,
      0x200e,
      0x200f,
      0x061c,
      0x200b,
      0x200c,
      0x200d,
      0x2060,
      0xfeff,
    ];
    for (const code of promised)
      expect(escapeHiddenCharacters(String.fromCharCode(code))).toBe(markerFor(code));
    // Line and paragraph separators break the line on screen where the shell sees none: escaped, as the
    // engine escapes them (one table for the engine and the card).
    expect(escapeHiddenCharacters("a\u2028b\u2029c")).toBe("a\\u2028b\\u2029c");
    // Newline and tab stay as they are, and so do ordinary non-ASCII letters, emoji and CJK.
    const visible = "a\tb\nc é ß 中文 🙂";
    expect(escapeHiddenCharacters(visible)).toBe(visible);
    expect(hiddenCharactersIn([visible])).toEqual([]);
    // A no-break space looks like a word break the shell does not make (`hi\u00a0#\u00a0&& rm x` is no
    // comment): escaped, like every space but the ASCII one.
    expect(escapeHiddenCharacters("hi\u00a0#")).toBe("hi\\u00A0#");
  });

  it("splits text into runs and named markers for rendering", () => {
    expect(splitHidden("a\u202Eb")).toEqual([
      { kind: "text", text: "a" },
      { kind: "hidden", character: { code: "\\u202E", name: "right-to-left override", kind: "bidi" } },
      { kind: "text", text: "b" },
    ]);
    expect(splitHidden("")).toEqual([]);
    expect(splitHidden("\u200B\u200B")).toHaveLength(2);
    expect(splitHidden("\u0085")[0]).toEqual({
      kind: "hidden",
      character: { code: "\\u0085", name: "C1 control character", kind: "control" },
    });
  });

  it("lists distinct characters across texts, in order, adding the server's list", () => {
    const found = hiddenCharactersIn([trojan, undefined, "cwd\u202E"], ["\\u202E", "\\u2067"]);
    expect(found.map((character) => character.code)).toEqual([
      "\\u202E",
      "\\u2066",
      "\\u2069",
      "\\u200B",
      "\\u001B",
      "\\u2067",
    ]);
    expect(found[5]).toEqual({ code: "\\u2067", name: "right-to-left isolate", kind: "bidi" });
    // A spelling the page does not know is still listed, never dropped.
    expect(hiddenCharactersIn([], ["U+E0041"])).toEqual([
      { code: "U+E0041", name: "reported by the server", kind: "control" },
    ]);
  });

  it("warns with the count and the names", () => {
    const warning = hiddenWarning(hiddenCharactersIn([trojan]));
    expect(warning).toContain("This command contains 5 hidden characters");
    expect(warning).toContain("\\u202E right-to-left override");
    expect(warning).toContain("\\u001B escape");
    expect(hiddenWarning(hiddenCharactersIn(["x\u200B"]), "path")).toContain(
      "This path contains 1 hidden character (",
    );
  });
});
