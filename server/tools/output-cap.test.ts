import { describe, expect, it } from "vitest";
import { BoundedCapture } from "./bounded-capture.ts";
import { globToRegExp } from "./glob.ts";
import { capForModel, capForUi, MODEL_OUTPUT_CAP } from "./output-cap.ts";

describe("capForModel", () => {
  it("passes short text through", () => {
    expect(capForModel("hello")).toEqual({ text: "hello", truncated: false, omittedChars: 0 });
  });

  it("keeps head and tail within the cap and says how much was cut", () => {
    const text = `HEAD${"x".repeat(100_000)}TAIL`;
    const capped = capForModel(text);
    expect(capped.truncated).toBe(true);
    expect(capped.text.length).toBeLessThanOrEqual(MODEL_OUTPUT_CAP);
    expect(capped.text.startsWith("HEAD")).toBe(true);
    expect(capped.text.endsWith("TAIL")).toBe(true);
    expect(capped.text).toContain(
      `[… ${capped.omittedChars} of ${text.length} characters cut from the middle …]`,
    );
    expect(capped.omittedChars).toBe(text.length - (MODEL_OUTPUT_CAP - 100));
  });

  it("handles tiny caps", () => {
    expect(capForModel("abcdefghij".repeat(30), 50).truncated).toBe(true);
  });

  it("capForUi keeps up to 1 MiB", () => {
    const small = "y".repeat(500_000);
    expect(capForUi(small).text).toBe(small);
    const large = "z".repeat(3 * 1024 * 1024);
    const capped = capForUi(large);
    expect(capped.truncated).toBe(true);
    expect(capped.text.length).toBeLessThanOrEqual(1024 * 1024);
  });
});

describe("BoundedCapture", () => {
  it("keeps everything under the budget", () => {
    const capture = new BoundedCapture(100);
    capture.push(Buffer.from("abc"));
    capture.push(Buffer.from("def"));
    expect(capture.text()).toBe("abcdef");
    expect(capture.truncated).toBe(false);
  });

  it("keeps head and tail bytes of a long stream", () => {
    const capture = new BoundedCapture(10);
    for (const piece of ["01234", "56789", "abcde", "fghij", "KLMNO"]) capture.push(Buffer.from(piece));
    expect(capture.truncated).toBe(true);
    expect(capture.totalBytes).toBe(25);
    expect(capture.text()).toBe(
      "01234\n[… 15 bytes of output cut from the middle (25 bytes in all) …]\nKLMNO",
    );
    capture.push(Buffer.from("P".repeat(50)));
    expect(capture.text().endsWith("PPPPP")).toBe(true);
  });
});

describe("glob", () => {
  it.each([
    ["**/*.ts", "src/a.ts", true],
    ["**/*.ts", "a.ts", true],
    ["src/*", "src/a.ts", true],
    ["src/*", "src/deep/a.ts", false],
    ["src/**", "src/deep/a.ts", true],
    ["*.{md,txt}", "notes.txt", true],
    ["file?.js", "file1.js", true],
    ["[ab].c", "b.c", true],
    ["[!ab].c", "b.c", false],
    ["a.ts", "a-ts", false],
  ])("path glob %s vs %s → %s", (pattern, text, expected) => {
    expect(globToRegExp(pattern).test(text)).toBe(expected);
  });

  it("command globs let * span spaces and slashes", () => {
    const regex = globToRegExp("git status*", { separatorAware: false });
    expect(regex.test("git status --short src/")).toBe(true);
    expect(regex.test("git stash")).toBe(false);
  });
});
