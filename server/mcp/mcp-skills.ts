// Skills over MCP (SEP-2640, the `io.modelcontextprotocol/skills` extension), the client side: the
// capability this client declares, a server's `skills/list` read page by page into checked entries,
// `skills/get` of one entry, and a file read as a resource into its raw bytes. Everything a server sends
// is untrusted: an entry that breaks the extension's rules is not a skill, and says why.
//
// Rules taken from the extension's specification (modelcontextprotocol/ext-skills, stable):
// - the URI of an entry names its SKILL.md, and its last path segment before `/SKILL.md` is the skill's
//   name, equal to `frontmatter.name` (which follows the Agent Skills naming rules);
// - `resources` is an array of `{uri, digest: "sha256:<64 lowercase hex>", size}` that lists SKILL.md
//   and every other file of the skill exactly once, each inside the skill's folder — or the string
//   "dynamic" (generated content, nothing can be verified); anything else is invalid and not loaded;
// - a host must accept skills up to 512 files and 16 MiB and may decline larger ones (this one does,
//   saying why, before retrieving anything).
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";
/** The client's side of the extension: declared in `initialize` (the extension defines no settings). */
export const SKILLS_CLIENT_CAPABILITIES = { extensions: { [SKILLS_EXTENSION]: {} } };

export const MAX_SKILL_FILES = 512;
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;
/** Entries read from one server's listing at most, and pages: a server cannot page forever. */
export const MAX_LISTED_SKILLS = 2000;
export const MAX_LIST_PAGES = 200;

const DIGEST = /^sha256:[0-9a-f]{64}$/;
/** Agent Skills names: 1–64 lowercase letters and digits (Unicode lowercase too) in hyphen-separated runs. */
const SKILL_NAME = /^[\p{Ll}\p{Lo}\p{Nd}]+(?:-[\p{Ll}\p{Lo}\p{Nd}]+)*$/u;

export interface McpSkillFile {
  uri: string;
  /** Relative to the skill's folder, `/`-separated. */
  path: string;
  digest: string;
  size: number;
}

/** One checked entry of `skills/list` or `skills/get`. */
export interface McpSkillEntry {
  uri: string;
  /** The URI's path without the scheme and `/SKILL.md` (`acme/billing/refunds`). */
  skillPath: string;
  /** Its last segment, equal to `frontmatter.name`. */
  name: string;
  frontmatter: Record<string, unknown>;
  /** The complete file set, or "dynamic". */
  files: McpSkillFile[] | "dynamic";
}

/** An entry that is not a skill: not loaded, and why. */
export interface McpSkillProblem {
  uri?: string;
  name?: string;
  reason: string;
}

export type EntryCheck = { ok: true; entry: McpSkillEntry } | { ok: false; problem: McpSkillProblem };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The skill's folder URI and path for the URI of its SKILL.md, or why the URI is not one. */
export function skillLocation(uri: string): { folder: string; skillPath: string; name: string } | string {
  if (!uri.endsWith("/SKILL.md"))
    return `its URI ${JSON.stringify(uri.slice(0, 200))} does not end in /SKILL.md`;
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:(?:\/\/)?/.exec(uri);
  if (!scheme) return `its URI ${JSON.stringify(uri.slice(0, 200))} has no scheme`;
  const folder = uri.slice(0, -"/SKILL.md".length);
  const skillPath = folder.slice(scheme[0].length);
  const segments = skillPath.split("/");
  if (skillPath === "" || segments.some((segment) => segment === "" || segment === "." || segment === ".."))
    return `its URI ${JSON.stringify(uri.slice(0, 200))} has an empty, "." or ".." segment`;
  return { folder, skillPath, name: segments[segments.length - 1]! };
}

/** Checks one entry against the extension's rules (the limits included). */
export function checkSkillEntry(raw: unknown): EntryCheck {
  const fail = (reason: string, uri?: string, name?: string): EntryCheck => ({
    ok: false,
    problem: { reason, ...(uri !== undefined ? { uri } : {}), ...(name !== undefined ? { name } : {}) },
  });
  if (!isRecord(raw)) return fail("an entry of skills/list is not an object");
  const { uri, frontmatter, resources } = raw;
  if (typeof uri !== "string" || uri === "") return fail("an entry has no uri");
  const location = skillLocation(uri);
  if (typeof location === "string") return fail(location, uri);
  const { folder, skillPath, name } = location;
  if (!isRecord(frontmatter)) return fail("its frontmatter is not an object", uri, name);
  if (typeof frontmatter.name !== "string" || typeof frontmatter.description !== "string")
    return fail("its frontmatter has no name or no description (both are required text)", uri, name);
  if (frontmatter.name !== name)
    return fail(
      `the URI's last segment "${name}" is not the frontmatter name "${frontmatter.name.slice(0, 80)}" (SEP-2640: they must be equal)`,
      uri,
      name,
    );
  if (name.length > 64 || !SKILL_NAME.test(name.normalize("NFKC")))
    return fail(
      `its name "${name.slice(0, 80)}" breaks the Agent Skills naming rules (1–64 lowercase letters and digits, single hyphens between them)`,
      uri,
      name,
    );
  if (resources === "dynamic")
    return { ok: true, entry: { uri, skillPath, name, frontmatter, files: "dynamic" } };
  if (!Array.isArray(resources))
    return fail(
      `its resources are ${resources === undefined ? "missing" : 'neither a list of files nor "dynamic"'}`,
      uri,
      name,
    );
  if (resources.length > MAX_SKILL_FILES)
    return fail(
      `declined: it lists ${resources.length} files; the limit is ${MAX_SKILL_FILES} (SEP-2640)`,
      uri,
      name,
    );
  const files: McpSkillFile[] = [];
  const seen = new Set<string>();
  let total = 0;
  for (const [index, resource] of resources.entries()) {
    if (!isRecord(resource)) return fail(`resources[${index}] is not an object`, uri, name);
    const { uri: fileUri, digest, size } = resource;
    if (typeof fileUri !== "string") return fail(`resources[${index}] has no uri`, uri, name);
    if (typeof digest !== "string" || !DIGEST.test(digest))
      return fail(
        `resources[${index}] (${fileUri.slice(0, 200)}): its digest is not "sha256:" and 64 lowercase hex digits`,
        uri,
        name,
      );
    if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 0)
      return fail(
        `resources[${index}] (${fileUri.slice(0, 200)}): its size is not a whole number of bytes`,
        uri,
        name,
      );
    if (!fileUri.startsWith(`${folder}/`))
      return fail(
        `resources[${index}] (${fileUri.slice(0, 200)}) is not inside the skill's folder ${folder}`,
        uri,
        name,
      );
    const path = fileUri.slice(folder.length + 1);
    const segments = path.split("/");
    if (
      segments.some((segment) => segment === "" || segment === "." || segment === "..") ||
      path.includes("\\")
    )
      return fail(
        `resources[${index}] (${fileUri.slice(0, 200)}) has an empty, "." or ".." segment`,
        uri,
        name,
      );
    if (seen.has(fileUri)) return fail(`resources lists ${fileUri.slice(0, 200)} twice`, uri, name);
    seen.add(fileUri);
    total += size;
    files.push({ uri: fileUri, path, digest, size });
  }
  if (!seen.has(uri))
    return fail("its resources do not list its own SKILL.md (the list must be complete)", uri, name);
  if (total > MAX_SKILL_BYTES)
    return fail(
      `declined: its files are ${total} bytes in all; the limit is ${MAX_SKILL_BYTES} (16 MiB, SEP-2640)`,
      uri,
      name,
    );
  return { ok: true, entry: { uri, skillPath, name, frontmatter, files } };
}

/** Whether a server's `initialize` declared the extension (it then serves skills/list and skills/get). */
export function declaresSkills(capabilities: unknown): boolean {
  if (!isRecord(capabilities) || !isRecord(capabilities.extensions)) return false;
  return isRecord(capabilities.extensions[SKILLS_EXTENSION]);
}

/** A request of a method the SDK has no schema for: the result comes back unchecked, as an object. */
async function rawRequest(client: Client, method: string, params: Record<string, unknown>, timeout: number) {
  const { z } = await import("zod");
  return client.request({ method, params }, z.looseObject({}), { timeout }) as Promise<
    Record<string, unknown>
  >;
}

export interface SkillListing {
  entries: McpSkillEntry[];
  problems: McpSkillProblem[];
}

/** Every entry of the server's `skills/list`, page by page (bounded), each checked. */
export async function listServerSkills(client: Client, timeoutMs: number): Promise<SkillListing> {
  const entries: McpSkillEntry[] = [];
  const problems: McpSkillProblem[] = [];
  let cursor: string | undefined;
  let pages = 0;
  let seen = 0;
  do {
    const page = await rawRequest(client, "skills/list", cursor ? { cursor } : {}, timeoutMs);
    if (!Array.isArray(page.skills)) {
      problems.push({ reason: "skills/list answered without a list of skills" });
      break;
    }
    for (const raw of page.skills) {
      if (++seen > MAX_LISTED_SKILLS) break;
      const checked = checkSkillEntry(raw);
      if (checked.ok) entries.push(checked.entry);
      else problems.push(checked.problem);
    }
    cursor = typeof page.nextCursor === "string" && page.nextCursor !== "" ? page.nextCursor : undefined;
  } while (cursor && ++pages < MAX_LIST_PAGES && seen <= MAX_LISTED_SKILLS);
  if (seen > MAX_LISTED_SKILLS || cursor)
    problems.push({
      reason: `the listing was cut after ${Math.min(seen, MAX_LISTED_SKILLS)} skills in ${pages + 1} pages (at most ${MAX_LISTED_SKILLS} skills and ${MAX_LIST_PAGES} pages are read)`,
    });
  return { entries, problems };
}

/** `skills/get` of one URI: the server's current entry, checked. */
export async function getServerSkill(client: Client, uri: string, timeoutMs: number): Promise<EntryCheck> {
  const result = await rawRequest(client, "skills/get", { uri }, timeoutMs);
  if (!isRecord(result.skill))
    return { ok: false, problem: { uri, reason: "skills/get answered without a skill" } };
  return checkSkillEntry(result.skill);
}

/** The raw bytes of one resource (`text` as UTF-8, `blob` as base64), or why there are none. */
export async function readServerResource(
  client: Client,
  uri: string,
  timeoutMs: number,
): Promise<Buffer | string> {
  const result = await client.readResource({ uri }, { timeout: timeoutMs });
  const contents = result.contents.find((content) => content.uri === uri) ?? result.contents[0];
  if (!contents) return `resources/read of ${uri} answered no contents`;
  if ("text" in contents && typeof contents.text === "string") return Buffer.from(contents.text, "utf8");
  if ("blob" in contents && typeof contents.blob === "string") return Buffer.from(contents.blob, "base64");
  return `resources/read of ${uri} answered neither text nor blob`;
}
