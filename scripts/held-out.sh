#!/usr/bin/env bash
# The held-out check (docs/held-out.md): public skill collections and MCP servers from npm, fetched into a
# scratch folder (never into the repository), run through the CLI as a new user would. Needs the npm
# registry. Prints, per collection and lint profile, skills found / offered / not offered (by kind) / lint
# notes; per server, the server's own tools/list count (official SDK client) against what the catalog
# registered. Usage: scripts/held-out.sh [SCRATCH_DIR]   (default: a new folder under /tmp)
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
DIR="${1:-$(mktemp -d /tmp/held-out.XXXXXX)}"
mkdir -p "$DIR/packs" "$DIR/ws" "$DIR/servers"
cli() { (cd "$REPO" && npm run -s cli -- "$@"); }

# package@version and the folder of its tarball that holds the skills
COLLECTIONS=(
  "ecc-universal@2.0.0 package/skills"
  "shopify-cc-kit@2.0.3 package/.agents/skills"
  "ai-labs-claude-skills@2.0.1 package/dist/skills"
  "@plaited/development-skills@0.8.1 package/skills"
  "@houseofwolvesllc/claude-scrum-skill@2.8.1 package/skills"
)
SERVERS=(
  @modelcontextprotocol/server-filesystem@2026.8.31 @modelcontextprotocol/server-memory@2026.8.31
  @modelcontextprotocol/server-everything@2026.8.31 @modelcontextprotocol/server-sequential-thinking@2026.8.31
  @antv/mcp-server-chart@0.9.10 mcp-server-code-runner@0.1.8 @wonderwhy-er/desktop-commander@0.2.52
  @playwright/mcp@0.0.86 chrome-devtools-mcp@1.11.0 @upstash/context7-mcp@4.1.1
)

echo "== skill collections ($DIR/ws)"
for entry in "${COLLECTIONS[@]}"; do
  read -r spec folder <<<"$entry"
  slug="$(echo "${spec%@*}" | tr -c 'a-zA-Z0-9\n' '-')"
  tarball="$(cd "$DIR/packs" && npm pack "$spec" --silent | tail -1)"
  rm -rf "$DIR/ws/$slug" && mkdir -p "$DIR/ws/$slug/x" "$DIR/ws/$slug/work/.PseudoClaude/skills" "$DIR/ws/$slug/home"
  tar xzf "$DIR/packs/$tarball" -C "$DIR/ws/$slug/x"
  cp -r "$DIR/ws/$slug/x/$folder/." "$DIR/ws/$slug/work/.PseudoClaude/skills/"
  found="$(find "$DIR/ws/$slug/work/.PseudoClaude/skills" -name SKILL.md | wc -l)"
  for profile in lenient agent-skills claude-code; do
    cli catalog --workdir "$DIR/ws/$slug/work" --home "$DIR/ws/$slug/home" --lint-profile "$profile" --json \
      >"$DIR/ws/$slug/catalog-$profile.json"
    node -e '
      const [file, spec, profile, found] = process.argv.slice(1);
      const c = JSON.parse(require("fs").readFileSync(file, "utf8"));
      const tally = (list, key) => Object.entries(list.reduce((m, x) => ((m[key(x)] = (m[key(x)] ?? 0) + 1), m), {}))
        .map(([k, n]) => `${k} ${n}`).join(", ") || "none";
      const offered = c.skills.filter((s) => s.source === "project" && s.invocation?.model !== false).length;
      const allowed = c.skills.filter((s) => s.source === "project" && s.allowedTools?.length);
      const unmapped = allowed.flatMap((s) => s.allowedTools.filter((a) => !a.tool).map((a) => a.entry));
      console.log(`${spec} [${profile}] SKILL.md on disk ${found}; offered ${offered}; ` +
        `not offered: ${tally(c.notOffered, (n) => `${n.source}/${n.kind}`)}; warnings ${c.warnings.length}; ` +
        `allowed-tools in ${allowed.length} skills (unmapped: ${unmapped.join(" ") || "none"}); ` +
        `lint: ${tally(c.lint, (l) => `${l.profile}/${l.rule}`)}`);
    ' "$DIR/ws/$slug/catalog-$profile.json" "$spec" "$profile" "$found"
  done
done

echo "== MCP servers ($DIR/servers)"
cd "$DIR/servers"
[ -f package.json ] || npm init -y >/dev/null
PUPPETEER_SKIP_DOWNLOAD=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
  npm install --no-audit --no-fund --silent "${SERVERS[@]}" @modelcontextprotocol/sdk@1.32.2 >/dev/null
mkdir -p work home && echo "hello held-out" >work/note.txt
# Each server as its README runs it, from the installed bin (a bin left without its execute bit runs with node).
node -e '
  const fs = require("fs"), path = require("path");
  const servers = {};
  for (const spec of process.argv.slice(1)) {
    const name = spec.slice(0, spec.lastIndexOf("@"));
    const pkg = JSON.parse(fs.readFileSync(`node_modules/${name}/package.json`, "utf8"));
    const bin = typeof pkg.bin === "string" ? pkg.bin : Object.values(pkg.bin)[0];
    const file = path.resolve("node_modules", name, bin);
    let executable = true;
    try { fs.accessSync(file, fs.constants.X_OK); } catch { executable = false; }
    const args = { "@modelcontextprotocol/server-filesystem": ["."], "@modelcontextprotocol/server-everything": ["stdio"],
      "@playwright/mcp": ["--headless", "--isolated"], "chrome-devtools-mcp": ["--headless"] }[name] ?? [];
    const last = name.split("/").pop();
    const key = last === "mcp" ? name.split("/")[0].slice(1) : last.replace(/^(mcp-)?server-|-mcp$/g, "");
    servers[key] = executable ? { command: file, args } : { command: "node", args: [file, ...args] };
    if (name.endsWith("server-memory")) servers[key].env = { MEMORY_FILE_PATH: path.resolve("work/memory.jsonl") };
  }
  fs.writeFileSync("work/.mcp.json", JSON.stringify({ mcpServers: servers }, null, 1));
' "${SERVERS[@]}"
cli catalog --workdir "$DIR/servers/work" --home "$DIR/servers/home" --trust --json >catalog.json 2>catalog.err
cat >count-tools.mjs <<'EOF'
import fs from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
const config = JSON.parse(fs.readFileSync("work/.mcp.json", "utf8")).mcpServers;
const catalog = JSON.parse(fs.readFileSync("catalog.json", "utf8"));
for (const [name, entry] of Object.entries(config)) {
  const client = new Client({ name: "held-out", version: "0" });
  const transport = new StdioClientTransport({ ...entry, cwd: "work", env: { ...process.env, ...entry.env }, stderr: "ignore" });
  const tools = [];
  try {
    await client.connect(transport);
    let cursor;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
  } finally {
    await client.close();
  }
  const dialects = [...new Set(tools.map((tool) => tool.inputSchema.$schema ?? "(undeclared)"))].join(" ");
  const view = catalog.mcp.find((server) => server.name === name);
  const registered = view?.tools.length ?? 0;
  console.log(`${name}: tools/list ${tools.length}, registered ${registered} (${view?.status}) ${registered === tools.length ? "ok" : "MISMATCH"} — ${dialects}`);
}
EOF
node count-tools.mjs
if [ -s catalog.err ]; then echo "-- catalog stderr:" && cat catalog.err; fi
