// `npm test`: typecheck, the layering lint, then Vitest (unit + integration), then Playwright (browser),
// each with its own JSON report, then one closing line "N passed, N failed" that CI can read. Exits non-zero on any failure.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const reports = join(root, "test-results");
mkdirSync(reports, { recursive: true });
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

function run(label, command, args, extraEnv = {}) {
  console.log(`\n▶ ${label}: ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...env, ...extraEnv } });
  return result.status ?? 1;
}

function readJson(path) {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    console.error(`could not read ${path}: ${error.message}`);
    return undefined;
  }
}

let passed = 0;
let failed = 0;
let skipped = 0;
const statuses = [];

const typecheck = run("typecheck", "npx", ["tsc", "--noEmit"]);
statuses.push(["typecheck", typecheck]);
if (typecheck === 0) passed += 1;
else failed += 1;

// The layering of DESIGN.md §2 (eslint.config.mjs): a runner → session import or an app → server import fails.
const lint = run("layering lint", "npx", ["eslint", "--max-warnings", "0", "server", "app"]);
statuses.push(["lint", lint]);
if (lint === 0) passed += 1;
else failed += 1;

const vitestReport = join(reports, "vitest.json");
rmSync(vitestReport, { force: true });
const vitest = run("unit and integration tests", "npx", [
  "vitest",
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${vitestReport}`,
]);
statuses.push(["vitest", vitest]);
const vitestJson = readJson(vitestReport);
if (vitestJson) {
  passed += vitestJson.numPassedTests ?? 0;
  failed += vitestJson.numFailedTests ?? 0;
  skipped += (vitestJson.numPendingTests ?? 0) + (vitestJson.numTodoTests ?? 0);
} else if (vitest !== 0) failed += 1;

const build = run("page build", "node", ["scripts/ensure-build.mjs"]);
statuses.push(["page build", build]);
if (build !== 0) failed += 1;
else {
  const playwrightReport = join(reports, "playwright.json");
  rmSync(playwrightReport, { force: true });
  const playwright = run("browser tests", "npx", ["playwright", "test", "--reporter=list,json"], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport,
  });
  statuses.push(["playwright", playwright]);
  const stats = readJson(playwrightReport)?.stats;
  if (stats) {
    passed += stats.expected ?? 0;
    failed += (stats.unexpected ?? 0) + (stats.flaky ?? 0);
    skipped += stats.skipped ?? 0;
  } else if (playwright !== 0) failed += 1;
}

const broken = statuses.filter(([, status]) => status !== 0).map(([name]) => name);
console.log(
  `\nsteps: ${statuses.map(([name, status]) => `${name} ${status === 0 ? "ok" : "FAILED"}`).join(", ")}`,
);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(broken.length === 0 && failed === 0 ? 0 : 1);
