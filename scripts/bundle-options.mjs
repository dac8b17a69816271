// What the package bundles: the server and the CLI entry points and esbuild's options for them. Shared by
// scripts/build-package.mjs (the build) and scripts/package-files.test.ts (which reads the same bundle's
// inputs to find every file the server reads at run time), so the two cannot disagree about what ships.
export const ENTRY_POINTS = { server: "server/index.ts", cli: "server/cli.ts" };

export const BUNDLE_OPTIONS = {
  entryPoints: ENTRY_POINTS,
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
};
