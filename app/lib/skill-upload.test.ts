// The page's packing for "Add skill": chunks reassemble to the same bytes and stay under the frame limit;
// a picked folder zips into an archive the server's installer reads as one skill folder.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseClientCommand } from "../../server/protocol/schemas.ts";
import { readZipArchive } from "../../server/skills/zip-reader.ts";
import { UPLOAD_CHUNK_BYTES, toBase64, uploadChunks, zipPickedFolder } from "./skill-upload.ts";

describe("skill upload packing", () => {
  it("splits bytes into chunks the server's schema accepts and that reassemble exactly", () => {
    const bytes = new Uint8Array(randomBytes(UPLOAD_CHUNK_BYTES * 2 + 123));
    const chunks = uploadChunks("s1", "u1", bytes);
    expect(chunks.map((chunk) => [chunk.index, chunk.count])).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
    ]);
    for (const chunk of chunks) {
      const frame = JSON.stringify(chunk);
      expect(frame.length).toBeLessThan(1024 * 1024);
      expect(parseClientCommand(frame)).toMatchObject({ ok: true });
    }
    const joined = Buffer.concat(chunks.map((chunk) => Buffer.from(chunk.data, "base64")));
    expect(joined.equals(Buffer.from(bytes))).toBe(true);
    expect(toBase64(new Uint8Array([1, 2, 250]))).toBe(Buffer.from([1, 2, 250]).toString("base64"));
    expect(uploadChunks("s1", "u1", new Uint8Array(0))).toHaveLength(1);
  });

  it("zips a picked folder (without .git and node_modules) into one top-level folder", async () => {
    const text = (value: string) => new TextEncoder().encode(value);
    const zip = zipPickedFolder([
      { relativePath: "my-skill/SKILL.md", bytes: text("---\nname: my-skill\ndescription: d\n---\nbody\n") },
      { relativePath: "my-skill/docs/reference.md", bytes: text("ref") },
      { relativePath: "my-skill/.git/config", bytes: text("[core]") },
      { relativePath: "my-skill/node_modules/x/index.js", bytes: text("x") },
    ]);
    const tree = await readZipArchive(Buffer.from(zip), "picked");
    expect(tree.topFolder).toBe("my-skill");
    expect(tree.files.map((file) => file.path)).toEqual(["SKILL.md", "docs/reference.md"]);
  });
});
