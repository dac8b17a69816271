// `npm pack` / `npm publish` (prepack): builds what an installed package runs without tsx or a page
// build — the static pages (out/, via ensure-build) and the server and CLI bundled to plain JavaScript
// (dist/server.mjs, dist/cli.mjs) with esbuild. Dependencies are bundled too: loading one file instead of
// hundreds of modules halves the start time (bench "start-time"). Only optional native add-ons stay out.
// Modules find their data files (skills/, the tools.json schema, package.json, out/) relative to their
// own source file (`new URL("../../skills/", import.meta.url)`); in a bundle every module shares one
// URL, so each module's `import.meta.url` is rewritten to the URL its source file has in the package.
import { spawnSync } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { BUNDLE_OPTIONS } from "./bundle-options.mjs";

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
const result = await build({
  ...BUNDLE_OPTIONS,
  absWorkingDir: root,
  outdir,
  plugins: [sourceLocation],
  metafile: true,
});
// --inputs: the files the bundle was made of, for server-bundle.mjs to check its cache key covers them.
if (process.argv.includes("--inputs"))
  await writeFile(path.join(outdir, "inputs.json"), JSON.stringify(Object.keys(result.metafile.inputs)));
console.log(`Server bundled to dist/ in ${Date.now() - started} ms.`);
