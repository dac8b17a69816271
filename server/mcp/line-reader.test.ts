// The stdio framing's limit: lines split across chunks, several lines in one chunk, and a line that
// passes the limit (in one chunk or over many) ends the stream instead of growing without bound.
import { describe, expect, it } from "vitest";
import { LineReader } from "./line-reader.ts";

const text = (lines: Buffer[]) => lines.map((line) => line.toString("utf8"));

describe("LineReader", () => {
  it("returns complete lines, joining a line split over chunks", () => {
    const reader = new LineReader({ maxLineBytes: 100 });
    expect(text(reader.push(Buffer.from('{"a":1}\n{"b"')).lines)).toEqual(['{"a":1}']);
    expect(text(reader.push(Buffer.from(":2")).lines)).toEqual([]);
    expect(text(reader.push(Buffer.from('}\n{"c":3}\n\n')).lines)).toEqual(['{"b":2}', '{"c":3}', ""]);
  });

  it("a line of exactly the limit passes; one byte more, in one chunk or over many, breaks the stream", () => {
    const exact = new LineReader({ maxLineBytes: 10 });
    expect(text(exact.push(Buffer.from("0123456789\n")).lines)).toEqual(["0123456789"]);

    const single = new LineReader({ maxLineBytes: 10 });
    const read = single.push(Buffer.from("ok\n0123456789A\nlater\n"));
    expect(read).toMatchObject({ overLimit: true });
    expect(text(read.lines)).toEqual(["ok"]);
    expect(single.push(Buffer.from("more\n"))).toMatchObject({ overLimit: true, lines: [] });

    const spread = new LineReader({ maxLineBytes: 10 });
    for (const piece of ["0123", "4567", "89"])
      expect(spread.push(Buffer.from(piece))).not.toHaveProperty("overLimit");
    expect(spread.push(Buffer.from("A"))).toMatchObject({ overLimit: true });
  });
});
