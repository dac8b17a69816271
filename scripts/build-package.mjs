// `npm pack` / `npm publish` (prepack): builds what an installed package runs without tsx or a page
// build — the static pages (out/, via ensure-build) and the server and CLI bundled to plain JavaScript
// (dist/server.mjs, dist/cli.mjs) with esbuild. Dependencies are bundled too: loading one file instead of
// hundreds of modules halves the start time (bench "start-time"). Only optional native add-ons stay out.
// Modules find their data files (skills/, the tools.json schema, package.json, out/) relative to their
// own source file (`new URL("../../skills/", import.meta.url)`); in a bundle every module shares one
// URL, so each module's `import.meta.url` is rewritten to the URL its source file has in the package.
import { spawnSync } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
// --outdir DIR: bundle elsewhere (the tests' cached server bundle, server/testing/server-bundle.ts).
const outdirFlag = process.argv.indexOf("--outdir");
const outdir = outdirFlag === -1 ? path.join(root, "dist") : path.resolve(process.argv[outdirFlag + 1]);

if (!process.argv.includes("--server-only")) {
  const pages = spawnSync(process.execPath, [path.join(root, "scripts", "ensure-build.mjs"), "--webpack"], {
    cwd: root,
    stdio: "inherit",
  });
  if (pages.status !== 0) process.exit(pages.status ?? 1);
}

/** Each server module's `import.meta.url` becomes the URL of its source file, relative to the bundle. */
const sourceLocation = {
  name: "source-location",
  setup(builder) {
    builder.onLoad({ filter: /[\\/]server[\\/].*\.ts$/ }, async (args) => {
      if (!args.path.startsWith(path.join(root, "server") + path.sep)) return undefined;
      const text = await readFile(args.path, "utf8");
      if (!text.includes("import.meta.url")) return { contents: text, loader: "ts" };
      const fromBundle = path.relative(outdir, args.path).split(path.sep).join("/");
      const location = `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`;
      return { contents: text.replaceAll("import.meta.url", location), loader: "ts" };
    });
  },
};

await rm(outdir, { recursive: true, force: true });
const started = Date.now();
await build({
  absWorkingDir: root,
  entryPoints: { server: "server/index.ts", cli: "server/cli.ts" },
  outdir,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  // The server and the CLI share one chunk of code, kept next to them (the rewritten URLs are relative
  // to dist/ itself).
  splitting: true,
  chunkNames: "[name]-[hash]",
  platform: "node",
  format: "esm",
  target: "node20",
  // ws loads these optional native add-ons in a try/catch; everything else is in the bundle.
  external: ["bufferutil", "utf-8-validate"],
  // Bundled CommonJS dependencies call require(); ESM output has none, so give them Node's.
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
  },
  sourcemap: false,
  legalComments: "none",
  logLevel: "warning",
  plugins: [sourceLocation],
});
console.log(`Server bundled to dist/ in ${Date.now() - started} ms.`);
