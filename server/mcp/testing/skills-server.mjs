// A stdio MCP server written with the SDK's low-level Server that serves skills over the skills extension
// (SEP-2640): it declares `io.modelcontextprotocol/skills` (and `resources`), answers `skills/list`
// (paginated: two entries a page), `skills/get` (-32602 for an unknown URI) and `resources/read` of every
// file under `skill://<folder>/…`. Plain JavaScript so that it runs as `node skills-server.mjs` inside the
// sandbox.
//
//   node skills-server.mjs SKILLS_FOLDER [OVERRIDES_JSON]
//
// Each folder of SKILLS_FOLDER holding a SKILL.md is one skill; the folder is re-read at every request,
// so a test changes a skill by changing its files. OVERRIDES_JSON (re-read at every request too) makes a
// skill hostile, per folder name:
//   { "<folder>": { "digests": {"<path>": "sha256:…"}, "sizes": {"<path>": n}, "serve": {"<path>": "text"},
//                   "omit": ["<path>"], "dynamic": true, "frontmatter": {…}, "uriSegment": "other",
//                   "resources": <any> } }
// `digests`/`sizes` list wrong values; `serve` answers other bytes than the listed ones; `omit` leaves a
// file out of the list (it is still served); `frontmatter` changes the listed frontmatter only;
// `uriSegment` lists the skill under another last URI segment than its name; `resources` replaces the
// listed resources as given (a malformed entry).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ErrorCode, McpError, ReadResourceRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { parse } from "yaml";
import { z } from "zod";

const [root, overridesFile] = process.argv.slice(2);
const PAGE_SIZE = 2;

function overrides() {
  if (!overridesFile) return {};
  try {
    return JSON.parse(readFileSync(overridesFile, "utf8"));
  } catch {
    return {};
  }
}

function filesOf(folder, prefix = "") {
  const out = [];
  for (const name of readdirSync(folder).sort()) {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) out.push(...filesOf(full, `${prefix}${name}/`));
    else out.push(`${prefix}${name}`);
  }
  return out;
}

function frontmatterOf(text) {
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  return match ? parse(match[1]) : {};
}

function digest(bytes) {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/** Every skill as its entry (with the overrides applied), by folder name. */
function entries() {
  const changes = overrides();
  const out = [];
  for (const folder of readdirSync(root).sort()) {
    const dir = path.join(root, folder);
    if (!statSync(dir).isDirectory()) continue;
    let skillText;
    try {
      skillText = readFileSync(path.join(dir, "SKILL.md"));
    } catch {
      continue;
    }
    const change = changes[folder] ?? {};
    const segment = change.uriSegment ?? folder;
    const base = `skill://${segment}`;
    const resources = filesOf(dir)
      .filter((file) => !(change.omit ?? []).includes(file))
      .map((file) => {
        const bytes = readFileSync(path.join(dir, file));
        return {
          uri: `${base}/${file}`,
          digest: change.digests?.[file] ?? digest(bytes),
          size: change.sizes?.[file] ?? bytes.length,
        };
      });
    out.push({
      folder,
      entry: {
        uri: `${base}/SKILL.md`,
        frontmatter: { ...frontmatterOf(skillText.toString("utf8")), ...(change.frontmatter ?? {}) },
        resources: "resources" in change ? change.resources : change.dynamic ? "dynamic" : resources,
      },
    });
  }
  return out;
}

const server = new Server(
  { name: "skills-test-server", version: "1.0.0" },
  { capabilities: { resources: {}, extensions: { "io.modelcontextprotocol/skills": {} } } },
);

server.setRequestHandler(
  z.object({
    method: z.literal("skills/list"),
    params: z.looseObject({ cursor: z.string().optional() }).optional(),
  }),
  async (request) => {
    const all = entries().map((item) => item.entry);
    const start = Number(request.params?.cursor ?? 0);
    const page = all.slice(start, start + PAGE_SIZE);
    return {
      skills: page,
      ...(start + PAGE_SIZE < all.length ? { nextCursor: String(start + PAGE_SIZE) } : {}),
      ttlMs: 0,
      cacheScope: "private",
    };
  },
);

server.setRequestHandler(
  z.object({ method: z.literal("skills/get"), params: z.looseObject({ uri: z.string() }) }),
  async (request) => {
    const found = entries().find((item) => item.entry.uri === request.params.uri);
    if (!found) throw new McpError(ErrorCode.InvalidParams, `No skill is served at ${request.params.uri}`);
    return { skill: found.entry, ttlMs: 0, cacheScope: "private" };
  },
);

server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
  const { uri } = request.params;
  const match = /^skill:\/\/([^/]+)\/(.+)$/.exec(uri);
  const changes = overrides();
  const folder = match
    ? (Object.keys(changes).find((name) => changes[name]?.uriSegment === match[1]) ?? match[1])
    : undefined;
  if (!match || !folder || folder.includes("..") || match[2].split("/").includes(".."))
    throw new McpError(ErrorCode.InvalidParams, `No resource at ${uri}`);
  const served = changes[folder]?.serve?.[match[2]];
  let text;
  try {
    text = served ?? readFileSync(path.join(root, folder, ...match[2].split("/")), "utf8");
  } catch {
    throw new McpError(ErrorCode.InvalidParams, `No resource at ${uri}`);
  }
  return { contents: [{ uri, mimeType: uri.endsWith(".md") ? "text/markdown" : "text/plain", text }] };
});

await server.connect(new StdioServerTransport());
