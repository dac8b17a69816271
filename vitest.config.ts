// Two Vitest projects (`npm run test:unit`, `npm run test:integration`; `npm test` runs both, then the
// browser tests). unit: no process, no socket, no bubblewrap — server/testing/unit-guard.ts refuses them
// and fails the test that tried; files in temp folders and in-memory transports are fine. integration:
// everything else (real child processes, bubblewrap, servers and sockets, MCP servers, Chromium).
// A test file is an integration test unless it is listed here: a new pure test belongs in UNIT.
// Playwright specs live in e2e/ and are never collected by Vitest.
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

const ALL = [
  "server/**/*.test.ts",
  "app/**/*.test.ts",
  "app/**/*.test.tsx",
  "scripts/**/*.test.ts",
  "bench/**/*.test.ts",
];
const EXCLUDE = ["e2e/**", "node_modules/**"];

/** Folders whose tests are all unit tests (pure functions, files in temp folders), then single files. */
const UNIT = [
  "app/**/*.test.{ts,tsx}",
  "bench/**/*.test.ts",
  // Not cache-as.test.ts: its buildFirstRequest probes for bubblewrap, as `cli prompt` does.
  "server/cache/{cache-ledger,cache-model,miss-causes,rules-file}.test.ts",
  "server/prompt/**/*.test.ts",
  "server/protocol/**/*.test.ts",
  "scripts/lint-boundaries.test.ts",
  "server/cli/trust-text.test.ts",
  "server/eval/triggers-file.test.ts",
  "server/mcp/line-reader.test.ts",
  "server/mcp/mcp-result.test.ts",
  "server/permission/bypass-attempts.test.ts",
  "server/permission/dangerous-home.test.ts",
  "server/permission/engine.attack.test.ts",
  "server/permission/engine.test.ts",
  "server/permission/option-table.test.ts",
  "server/permission/scoped-allows.test.ts",
  "server/permission/shell-parse.test.ts",
  "server/providers/config.test.ts",
  "server/providers/manual.test.ts",
  "server/providers/mapping.test.ts",
  "server/providers/redact.test.ts",
  "server/providers/scenario-divergence.test.ts",
  "server/providers/scripted.test.ts",
  "server/runner/request-overrides.test.ts",
  "server/session/claude-code-skill.test.ts",
  "server/session/event-stream.test.ts",
  "server/session/log-compaction.test.ts",
  "server/session/run-digest.test.ts",
  "server/session/scenario-import.test.ts",
  "server/session/workspace.test.ts",
  "server/skills/active-skills.test.ts",
  "server/skills/allowed-tools.test.ts",
  "server/skills/catalog.test.ts",
  "server/skills/description-overlap.test.ts",
  "server/skills/install.test.ts",
  "server/skills/lint.test.ts",
  "server/skills/load-skill-tool.test.ts",
  "server/skills/manifest.test.ts",
  "server/skills/not-offered.test.ts",
  "server/skills/parse-skill.test.ts",
  "server/skills/parser-fuzz.test.ts",
  "server/skills/scan-layer.test.ts",
  "server/skills/tools-json.test.ts",
  "server/tools/confine.test.ts",
  "server/tools/output-cap.test.ts",
];

/**
 * The coverage floor (coverage-floor.json, committed): the merged run of `npm test` fails below it, and
 * `npm run coverage:raise` lifts it to what was measured (never lowers it). The per-project runs of
 * `npm test` only collect (COVERAGE_PARTIAL=1): the floor is for the merged figure.
 */
const floor = JSON.parse(readFileSync(new URL("./coverage-floor.json", import.meta.url), "utf8")) as Record<
  "lines" | "statements" | "functions" | "branches",
  number
>;
const partial = process.env.COVERAGE_PARTIAL === "1";

const shared = {
  testTimeout: 30_000,
  hookTimeout: 30_000,
  pool: "forks" as const,
  // Vitest's default is one worker fewer than the cores: one test file at a time on a 2-core machine,
  // while most integration files wait on processes and sockets. Two at least.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  // One module graph per worker, not one per test file: importing the server's modules again for every
  // file cost more CPU than the tests themselves (integration: 257 s of CPU with, 107 s without). Test
  // files share module state, so each restores what it changes (process.env, the working directory) and
  // ends what it starts.
  isolate: false,
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          name: "unit",
          include: UNIT,
          exclude: EXCLUDE,
          setupFiles: ["server/testing/unit-guard.ts"],
        },
      },
      {
        test: {
          ...shared,
          name: "integration",
          include: ALL,
          exclude: [...EXCLUDE, ...UNIT],
        },
      },
    ],
    coverage: {
      provider: "v8",
      // The server and the pages' logic; the React components are exercised in Chromium (e2e/), which
      // this V8 coverage does not see.
      include: ["server/**/*.ts", "app/lib/**/*.ts", "app/state/**/*.ts"],
      exclude: ["**/*.test.ts", "**/testing/**", "**/fixtures/**", "**/*.d.ts"],
      reportsDirectory: "coverage",
      reporter: partial ? [] : ["text-summary", "json-summary"],
      ...(partial ? {} : { thresholds: floor }),
    },
  },
});
