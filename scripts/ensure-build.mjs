// Builds the static pages (next build → out/) when they are missing or older than their sources, so
// `npm start` and the browser tests always serve pages that match the code.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

const root = new URL("..", import.meta.url).pathname;
const inputs = [
  "app",
  "server/protocol",
  "server/shared",
  "next.config.js",
  "postcss.config.mjs",
  "package-lock.json",
  "tsconfig.json",
  "tsconfig.app.json",
];

function* files(path) {
  const full = join(root, path);
  if (!existsSync(full)) return;
  if (statSync(full).isDirectory()) {
    for (const entry of readdirSync(full).sort()) {
      if (entry.endsWith(".test.ts") || entry.endsWith(".test.tsx")) continue;
      yield* files(join(path, entry));
    }
  } else yield path;
}

const hash = createHash("sha256");
for (const input of inputs)
  for (const file of files(input)) hash.update(file).update(readFileSync(join(root, file)));
const digest = hash.digest("hex");
const stampPath = join(root, "out", ".build-stamp");
if (
  existsSync(stampPath) &&
  readFileSync(stampPath, "utf8") === digest &&
  !process.argv.includes("--force")
) {
  process.exit(0);
}
console.log("Building the playground pages (next build)…");
const started = Date.now();
// Other flags go to next build (the package build passes --webpack: Turbopack cannot resolve a symlinked node_modules).
const nextFlags = process.argv.slice(2).filter((flag) => flag !== "--force");
const result = spawnSync("npx", ["next", "build", ...nextFlags], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
});
if (result.status !== 0) {
  console.error("next build failed; see the output above.");
  process.exit(result.status ?? 1);
}
writeFileSync(stampPath, digest);
console.log(`Pages built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
