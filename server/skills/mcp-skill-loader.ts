// Loading a skill an MCP server serves (SEP-2640), and reading its files, on that skill's own server
// only. Nothing is fetched before it is needed: the SKILL.md when the skill is loaded, a file when it is
// read. Everything is verified as the extension requires, and content that fails is never used:
// - at load, `skills/get` gives the server's current entry; a file set other than the one listed (and
//   approved) is a changed skill: the load fails, the catalog takes the new entry, and loading it again
//   asks again (the approval is bound to the set, mcp-source.ts `contentKey`);
// - every read matches the entry's `sha256:` digest and size; a file the entry does not list is a
//   failure; the SKILL.md's frontmatter, re-parsed, must equal the entry's field by field;
// - a `"dynamic"` skill (nothing listed to verify against) loads with a warning, and what is read of it
//   counts against the 16 MiB limit.
// Verified files are kept in a cache folder of the host (`<home>/.PseudoClaude/mcp-skills/<server>/
// <uri hash>/<name>/`), outside every skill layer, named by server and URI, read-only to sandboxed
// processes (the home is), and checked against the digest again at every read (SEP-2640's cache rule), so
// bytes changed on disk are never served.
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, realpath, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { MAX_SKILL_BYTES, type EntryCheck, type McpSkillEntry } from "../mcp/mcp-skills.ts";
import type { SkillResources } from "../protocol/skill-resources.ts";
import { referencedManifestFiles } from "./manifest.ts";
import { contentKey } from "./mcp-source.ts";
import { parseSkillMarkdown } from "./parse-skill.ts";
import type { Skill } from "./types.ts";

export const MCP_SKILL_TIMEOUT_MS = 30_000;

/** What the loader needs of a server: the extension's two reads. */
export interface McpSkillServer {
  getSkill(uri: string, timeoutMs: number): Promise<EntryCheck>;
  readResource(uri: string, timeoutMs: number): Promise<Buffer | string>;
}

export interface McpSkillLoaderOptions {
  /** The connected server of that name, or why there is none. */
  server(name: string): McpSkillServer | string;
  /** Where verified files are kept (host-only; outside every skill layer). */
  cacheDir: string;
  /** The server's entry changed since it was listed: the catalog takes the new one. */
  entryChanged(server: string, entry: McpSkillEntry): void;
}

export interface LoadedMcpSkill {
  /** The SKILL.md's body (verified). */
  body: string;
  resources: SkillResources;
  /** Fetches and verifies one file of the skill before a read (undefined: readable now), or says why not. */
  prepare(relative: string): Promise<string | undefined>;
  warnings: string[];
}

function sha256(bytes: Buffer): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/** JSON with sorted keys, so two frontmatters compare by content. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "undefined";
}

/** The first field on which the SKILL.md's frontmatter and the entry's differ, or undefined. */
export function frontmatterDifference(
  fromFile: Record<string, unknown>,
  fromEntry: Record<string, unknown>,
): string | undefined {
  for (const key of [...new Set([...Object.keys(fromEntry), ...Object.keys(fromFile)])].sort()) {
    const a = canonical(fromEntry[key]);
    const b = canonical(fromFile[key]);
    if (a !== b)
      return `frontmatter field "${key}" differs: the entry says ${a.slice(0, 120)}, the SKILL.md says ${b.slice(0, 120)}`;
  }
  return undefined;
}

/** What changed between two file sets, in words ("added x; removed y; changed z"). */
type FileSet = readonly { path: string; digest: string }[] | "dynamic";

function describeChange(before: FileSet, after: FileSet): string {
  if (before === "dynamic" || after === "dynamic")
    return `its files went from ${before === "dynamic" ? "dynamic" : "listed"} to ${after === "dynamic" ? "dynamic" : "listed"}`;
  const old = new Map(before.map((file) => [file.path, file.digest]));
  const now = new Map(after.map((file) => [file.path, file.digest]));
  const added = [...now.keys()].filter((file) => !old.has(file));
  const removed = [...old.keys()].filter((file) => !now.has(file));
  const changed = [...now.keys()].filter((file) => old.has(file) && old.get(file) !== now.get(file));
  const parts = [
    added.length ? `added ${added.join(", ")}` : "",
    removed.length ? `removed ${removed.join(", ")}` : "",
    changed.length ? `changed ${changed.join(", ")}` : "",
  ].filter(Boolean);
  return parts.join("; ") || "its files differ";
}

/** A verified read's bytes against the entry's size and digest (size first: a different length fails at once). */
function verify(bytes: Buffer, file: { path: string; digest: string; size: number }): string | undefined {
  if (bytes.length !== file.size)
    return `${file.path} is ${bytes.length} bytes, the entry lists ${file.size}: verification failed, it is not used`;
  const digest = sha256(bytes);
  if (digest !== file.digest)
    return `${file.path} hashes to ${digest}, the entry lists ${file.digest}: verification failed, it is not used`;
  return undefined;
}

async function writeAtomically(file: string, bytes: Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  await writeFile(temp, bytes, { mode: 0o600, flag: "wx" });
  await rename(temp, file);
}

export class McpSkillLoader {
  constructor(private readonly options: McpSkillLoaderOptions) {}

  /** The cache folder of one skill: by server and URI (a hash), ending in the skill's name. */
  cacheFolder(server: string, uri: string, name: string): string {
    const uriHash = createHash("sha256").update(uri).digest("hex").slice(0, 16);
    return path.join(this.options.cacheDir, encodeURIComponent(server), uriHash, encodeURIComponent(name));
  }

  /** Loads an MCP skill: its current entry, its SKILL.md, verified; or why it cannot be loaded. */
  async load(skill: Skill): Promise<LoadedMcpSkill | string> {
    const origin = skill.mcp;
    if (!origin) return `skill "${skill.meta.name}" is not served by an MCP server`;
    const server = this.options.server(origin.server);
    if (typeof server === "string") return server;
    const checked = await server.getSkill(origin.uri, MCP_SKILL_TIMEOUT_MS);
    if (!checked.ok)
      return `MCP server ${origin.server} answered skills/get for ${origin.uri} with an entry that is not loaded: ${checked.problem.reason}`;
    const entry = checked.entry;
    if (contentKey(entry) !== origin.contentKey) {
      const listed = origin.files ?? "dynamic";
      this.options.entryChanged(origin.server, entry);
      return (
        `skill "${skill.meta.name}" changed on MCP server ${origin.server} since it was listed (${describeChange(listed, entry.files)}): ` +
        `the approval covered the listed files only, so it was not loaded. The catalog now holds the new entry; load it again to be asked again`
      );
    }
    const warnings: string[] = [];
    const folder = origin.uri.slice(0, -"/SKILL.md".length);
    const cacheFolder = this.cacheFolder(origin.server, origin.uri, entry.name);
    let dynamicBytes = 0;
    const listedFile = (relative: string) =>
      entry.files === "dynamic" ? undefined : entry.files.find((file) => file.path === relative);

    /** One file's bytes, verified (or, for a dynamic skill, bounded), from the cache or the server. */
    const fetchFile = async (relative: string): Promise<Buffer | string> => {
      const target = path.join(cacheFolder, ...relative.split("/"));
      const file = listedFile(relative);
      if (entry.files !== "dynamic" && !file)
        return `${relative} is not listed in the entry of skill "${skill.meta.name}": an unlisted file is a verification failure (SEP-2640). If the server added it, load the skill again to refresh its entry (and be asked again)`;
      if (file) {
        // The cache is checked against the digest at every read: bytes changed on disk are fetched again.
        const cached = await readFile(target).catch(() => undefined);
        if (cached && verify(cached, file) === undefined) return cached;
      }
      const bytes = await server.readResource(`${folder}/${relative}`, MCP_SKILL_TIMEOUT_MS);
      if (typeof bytes === "string") return bytes;
      if (file) {
        const problem = verify(bytes, file);
        if (problem) return problem;
      } else {
        dynamicBytes += bytes.length;
        if (dynamicBytes > MAX_SKILL_BYTES)
          return `${relative}: skill "${skill.meta.name}" is dynamic and what was read of it passed ${MAX_SKILL_BYTES} bytes (16 MiB, SEP-2640); no more of it is read`;
      }
      await writeAtomically(target, bytes);
      return bytes;
    };

    const skillFile = await fetchFile("SKILL.md");
    if (typeof skillFile === "string")
      return `SKILL.md of "${skill.meta.name}" from MCP server ${origin.server}: ${skillFile}`;
    const parsed = parseSkillMarkdown(skillFile.toString("utf8"));
    if (!parsed.ok)
      return `SKILL.md of "${skill.meta.name}" from MCP server ${origin.server} does not parse: ${parsed.problem.reason}`;
    const difference = frontmatterDifference(parsed.skill.data, entry.frontmatter);
    if (difference)
      return `SKILL.md of "${skill.meta.name}" from MCP server ${origin.server} does not match its entry (${difference}): verification failed, it is not loaded`;
    if (entry.files === "dynamic")
      warnings.push(
        `skill "${skill.meta.name}" from MCP server ${origin.server} is dynamic: the server lists no digests, so nothing of it can be verified`,
      );

    const files =
      entry.files === "dynamic"
        ? []
        : entry.files
            .filter((file) => file.path !== "SKILL.md")
            .map((file) => ({ path: file.path, bytes: file.size }));
    // The folder's real path is the root the file tools confine reads to (server/tools/skill-roots.ts).
    const resources: SkillResources = {
      baseDir: await realpath(cacheFolder),
      files,
      more: 0,
      referenced: referencedManifestFiles(parsed.skill.body, files),
    };
    const directories = new Set(
      files.flatMap((file) =>
        file.path
          .split("/")
          .slice(0, -1)
          .map((_, index, parts) => parts.slice(0, index + 1).join("/")),
      ),
    );
    const prepare = async (relative: string): Promise<string | undefined> => {
      if (relative === "." || directories.has(relative)) return undefined;
      const result = await fetchFile(relative);
      return typeof result === "string" ? result : undefined;
    };
    return { body: parsed.skill.body, resources, prepare, warnings };
  }
}
