// The catalog's fourth source: skills MCP servers serve (SEP-2640), as `mcp:<server>`. Built from the
// servers' checked listings (server/mcp/mcp-skills.ts) and the names the disk layers hold. Never a silent
// shadow across origins: a name that another origin also has (a disk skill, another server's skill, or
// another entry of the same server) is qualified as `<server>/<skill path>` for every MCP entry that
// has it, and the view says why; the disk skill keeps its name. Nothing is fetched here: the body is
// fetched when the skill is loaded (mcp-skill-loader.ts).
import { createHash } from "node:crypto";
import { stringify } from "yaml";
import type { McpSkillEntry, SkillListing } from "../mcp/mcp-skills.ts";
import { parseSkillMarkdown } from "./parse-skill.ts";
import type { LoadedSkill } from "./scan-layer.ts";
import type { McpSkillOrigin, McpSkillSource, SkillWarning } from "./types.ts";

export interface McpListingInput {
  /** The host's name for the server (its key in mcpServers), never the server's own serverInfo.name. */
  server: string;
  listing: SkillListing;
}

export interface McpSourceResult {
  skills: LoadedSkill[];
  warnings: SkillWarning[];
}

export function mcpSource(server: string): McpSkillSource {
  return `mcp:${server}`;
}

/** What an approval to load the skill is bound to: every (uri, digest) pair of its entry. */
export function contentKey(entry: Pick<McpSkillEntry, "uri" | "files">): string {
  const pairs =
    entry.files === "dynamic"
      ? [[entry.uri, "dynamic"]]
      : entry.files
          .map((file) => [file.uri, file.digest])
          .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0));
  return `sha256:${createHash("sha256").update(JSON.stringify(pairs)).digest("hex")}`;
}

/** Written where an MCP skill's body will be once it is loaded. */
export const MCP_BODY_PLACEHOLDER =
  "(served by an MCP server; its SKILL.md is fetched when the skill is loaded)";

/**
 * The entry's frontmatter read the way a SKILL.md's is (the same parser and its checks: hidden
 * characters in the name, `mode`, `tools`, …), with a placeholder body.
 */
function metaOf(entry: McpSkillEntry) {
  let yaml: string;
  try {
    yaml = stringify(entry.frontmatter);
  } catch (error) {
    return { ok: false as const, reason: `its frontmatter cannot be read as YAML: ${String(error)}` };
  }
  const parsed = parseSkillMarkdown(`---\n${yaml}---\n${MCP_BODY_PLACEHOLDER}\n`);
  return parsed.ok
    ? { ok: true as const, parsed: parsed.skill }
    : { ok: false as const, reason: parsed.problem.reason };
}

/**
 * The MCP skills of every listing, named so that no name is shared across origins. `diskNames`: every
 * name a disk layer holds (offered or not — a shadowed one is still somebody's skill).
 */
export function buildMcpSkills(
  listings: readonly McpListingInput[],
  diskNames: ReadonlySet<string>,
): McpSourceResult {
  const warnings: SkillWarning[] = [];
  const candidates: { server: string; entry: McpSkillEntry }[] = [];
  for (const { server, listing } of listings) {
    for (const problem of listing.problems)
      warnings.push({
        source: mcpSource(server),
        path: problem.uri ?? `mcp:${server}`,
        ...(problem.name ? { skill: problem.name } : {}),
        reason: `not loaded: ${problem.reason}`,
      });
    for (const entry of listing.entries) candidates.push({ server, entry });
  }
  // Who else has each name: other MCP entries (any server, the same one too) and the disk layers.
  const holders = new Map<string, string[]>();
  for (const { server, entry } of candidates) {
    const list = holders.get(entry.name) ?? [];
    list.push(`${entry.uri} of MCP server ${server}`);
    holders.set(entry.name, list);
  }
  const skills: LoadedSkill[] = [];
  const taken = new Set<string>(diskNames);
  for (const { server, entry } of candidates) {
    const source = mcpSource(server);
    const meta = metaOf(entry);
    if (!meta.ok) {
      warnings.push({ source, path: entry.uri, skill: entry.name, reason: `not loaded: ${meta.reason}` });
      continue;
    }
    const others = (holders.get(entry.name) ?? []).filter(
      (holder) => holder !== `${entry.uri} of MCP server ${server}`,
    );
    const qualifiedBecause = diskNames.has(entry.name)
      ? `a skill on disk is also named "${entry.name}"`
      : others.length > 0
        ? `${others[0]} is also named "${entry.name}"`
        : undefined;
    const name = qualifiedBecause ? `${server}/${entry.skillPath}` : entry.name;
    if (taken.has(name)) {
      warnings.push({
        source,
        path: entry.uri,
        skill: entry.name,
        reason: `not loaded: its name "${name}" is taken by another skill even when qualified by its server`,
      });
      continue;
    }
    taken.add(name);
    const origin: McpSkillOrigin = {
      server,
      uri: entry.uri,
      listedName: entry.name,
      ...(entry.files !== "dynamic"
        ? { files: entry.files.map(({ path, digest, size }) => ({ path, digest, size })) }
        : {}),
      ...(qualifiedBecause ? { qualifiedBecause } : {}),
      contentKey: contentKey(entry),
    };
    skills.push({
      skill: {
        meta: { ...meta.parsed.meta, name },
        body: MCP_BODY_PLACEHOLDER,
        entryPath: entry.uri,
        rootDir: "",
        source,
        tools: [],
        mcp: origin,
      },
      raw: JSON.stringify({ uri: entry.uri, frontmatter: entry.frontmatter, resources: entry.files }),
      toolsRaw: "",
      resourceLint: [],
    });
  }
  return { skills, warnings };
}
