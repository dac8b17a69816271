// `npm run lint`: the layering of shared/DESIGN.md §2, enforced with eslint-plugin-boundaries.
// - a server module never imports a module above it (the table below, lowest first);
// - the pages (app/) import server/protocol, as types only, and values from server/shared (the one small
//   pure module whose rules both sides apply: hidden characters, prices, figures), nothing else of the server
//   — except the request model (server/protocol/request-model.ts), the pure resolver both sides run;
// - server/shared is pure: it imports only its own files and uses no Node global (no Node APIs, no React,
//   no package), so the pages can bundle it and the server can run it unchanged;
// - nothing imports the composition roots (server/index.ts, server/cli.ts, server/cli/).
// Tests and their helpers may reach across layers to build real parts; production code may not.
// TypeScript is parsed by @babel/eslint-parser: TypeScript 7 ships no JS compiler API, which
// typescript-eslint's parser needs (it supports TypeScript < 6.1).
import babelParser from "@babel/eslint-parser";
import boundaries from "eslint-plugin-boundaries";

/** Lowest first (DESIGN.md §2). */
const LAYERS = [
  "shared",
  "errors",
  "protocol",
  "providers",
  "tools",
  "mcp",
  "skills",
  "prompt",
  "cache",
  "permission",
  "runner",
  "eval",
  "session",
  "export",
  "transport",
];

/** What makes a module not pure: Node's globals (the pages have none of them). */
const NODE_GLOBALS = [
  "process",
  "Buffer",
  "require",
  "module",
  "exports",
  "__dirname",
  "__filename",
  "global",
];

const TEST_FILES = ["**/*.test.ts", "**/*.test.tsx", "server/**/testing/**", "server/**/fixtures/**"];

const layerPolicies = LAYERS.slice(0, -1).map((layer, index) => ({
  from: { element: { type: layer } },
  disallow: { to: { element: { type: LAYERS.slice(index + 1) } } },
  message: `server/${layer} is below ${LAYERS.slice(index + 1).join(", ")} and must not import them (DESIGN.md §2)`,
}));

export default [
  { ignores: ["node_modules/**", "out/**", ".next/**", "test-results/**", "playwright-report/**"] },
  {
    files: ["server/**/*.ts", "app/**/*.ts", "app/**/*.tsx"],
    ignores: TEST_FILES,
    languageOptions: {
      parser: babelParser,
      parserOptions: {
        requireConfigFile: false,
        babelOptions: {
          babelrc: false,
          configFile: false,
          presets: [["@babel/preset-typescript", { isTSX: true, allExtensions: true }]],
        },
      },
    },
    plugins: { boundaries },
    settings: {
      "boundaries/elements": [
        ...LAYERS.map((layer) => ({ type: layer, pattern: `server/${layer}` })),
        { type: "composition-root", pattern: "server/cli" },
        { type: "app", pattern: "app" },
        // Last, so the layer folders above win: what is left directly in server/ (index.ts, cli.ts).
        { type: "composition-root", pattern: "server" },
      ],
      "boundaries/include": ["server/**/*", "app/**/*"],
      "import/resolver": { node: { extensions: [".ts", ".tsx", ".js", ".mjs"] } },
    },
    rules: {
      // One schema validator (issue: one ajv instance behind compileValidator), and one way to run a
      // pattern from an untrusted source: the linear-time engine behind linearRegExp (SECURITY S18).
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "ajv", message: "use compileValidator from server/protocol/validator.ts" },
            { name: "ajv-formats", message: "use compileValidator from server/protocol/validator.ts" },
            { name: "re2js", message: "use linearRegExp from server/protocol/linear-regex.ts" },
          ],
          patterns: [{ group: ["ajv/*"], message: "use compileValidator from server/protocol/validator.ts" }],
        },
      ],
      "boundaries/dependencies": [
        "error",
        {
          default: "allow",
          policies: [
            ...layerPolicies,
            {
              from: { element: { type: "app" } },
              disallow: {
                to: {
                  element: {
                    type: [
                      ...LAYERS.filter((layer) => layer !== "protocol" && layer !== "shared"),
                      "composition-root",
                    ],
                  },
                },
              },
              message:
                "the pages import server/protocol types and server/shared values only, never other server modules (DESIGN.md §2)",
            },
            {
              from: { element: { type: "app" } },
              // …but for the request model, the one pure module both sides run (DESIGN.md §2).
              disallow: {
                to: { element: { type: "protocol", fileInternalPath: "!request-model.ts" } },
                dependency: { kind: "value" },
              },
              message: "the pages import server/protocol as types only: write `import type`",
            },
            {
              from: { element: { type: LAYERS } },
              disallow: { to: { element: { type: ["composition-root", "app"] } } },
              message:
                "no server module imports a composition root (server/index.ts, server/cli*) or the pages",
            },
          ],
        },
      ],
    },
  },
  {
    // The shared module runs in the pages and on the server: its own files only, and no Node global.
    files: ["server/shared/**/*.ts"],
    ignores: TEST_FILES,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(?!\\./)",
              message:
                "server/shared is pure (DESIGN.md §2): it imports only its own files (./x.ts), no Node API, no React, no package",
            },
          ],
        },
      ],
      "no-restricted-syntax": [
        "error",
        {
          selector: "ImportExpression",
          message: "server/shared is pure (DESIGN.md §2): no dynamic import",
        },
      ],
      "no-restricted-globals": [
        "error",
        ...NODE_GLOBALS.map((name) => ({
          name,
          message: `server/shared is pure (DESIGN.md §2): no Node API (${name}); the pages bundle it too`,
        })),
      ],
    },
  },
  {
    files: ["server/protocol/validator.ts", "server/protocol/linear-regex.ts"],
    rules: { "no-restricted-imports": "off" },
  },
];
