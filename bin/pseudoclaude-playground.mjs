#!/usr/bin/env node
// `npx pseudoclaude-playground [--workdir DIR] [every npm start flag]`: the playground from an installed
// package — prebuilt pages (out/) and the bundled server (dist/server.mjs), no build step, no tsx.
// From outside this package's folder the workdir defaults to the current folder (inside it, `npm start`'s
// default applies: a fresh copy of examples/demo-workdir).
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const bundle = path.join(root, "dist", "server.mjs");
if (!existsSync(bundle)) {
  console.error(
    `${bundle} is missing: this is a source checkout. Run \`npm start\` here, or \`npm pack\` to build the package.`,
  );
  process.exit(2);
}
const args = process.argv.slice(2);
const cwd = process.cwd();
const insidePackage = cwd === path.resolve(root) || cwd.startsWith(path.resolve(root) + path.sep);
const asksForHelp = args.includes("--help") || args.includes("-h");
if (!insidePackage && !asksForHelp && !args.includes("--workdir")) args.push("--workdir", cwd);
process.argv = [process.argv[0], bundle, ...args];
await import(new URL("../dist/server.mjs", import.meta.url).href);
