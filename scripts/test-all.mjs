// `npm test`: every test, then one closing line "N passed, N failed" that CI can read (exit non-zero on any
// failure). In order: the typecheck and the layering lint (side by side), the unit tests, the integration
// tests (Vitest projects, vitest.config.ts; both collect V8 coverage), the coverage of the two merged and
// held to the floor in coverage-floor.json, the page build when the pages are older than their sources,
// and the browser tests (Playwright). Each step's wall time and CPU time (user + system, its processes
// included) are printed at the end, with the coverage.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const reports = join(root, ".test-reports");
const blobs = join(reports, "blobs");
rmSync(reports, { recursive: true, force: true });
mkdirSync(blobs, { recursive: true });
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

/** CPU seconds (user, system) of this process's finished children, from /proc (Linux); else undefined. */
function childCpu() {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    return [Number(fields[13]) / 100, Number(fields[14]) / 100];
  } catch {
    return undefined;
  }
}

const timings = [];

/** Runs `work` (which runs processes) and records its wall time and the CPU its processes used. */
async function timed(label, work) {
  const cpuBefore = childCpu();
  const started = Date.now();
  const result = await work();
  const cpuAfter = childCpu();
  timings.push({
    label,
    wallSeconds: (Date.now() - started) / 1000,
    ...(cpuBefore && cpuAfter ? { cpu: [cpuAfter[0] - cpuBefore[0], cpuAfter[1] - cpuBefore[1]] } : {}),
  });
  return result;
}

/**
 * Runs one command; resolves with its exit status. `quiet` keeps its output until it ends (steps that run
 * side by side), so lines never interleave.
 */
function run(label, command, args, { extraEnv = {}, quiet = false } = {}) {
  console.log(`\n▶ ${label}: ${command} ${args.join(" ")}`);
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...env, ...extraEnv },
      stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit",
    });
    let output = "";
    if (quiet) {
      child.stdout.on("data", (chunk) => (output += chunk));
      child.stderr.on("data", (chunk) => (output += chunk));
    }
    child.on("error", (error) => {
      output += `${error.message}\n`;
    });
    child.on("close", (code) => {
      if (quiet) process.stdout.write(`\n▶ ${label} (output):\n${output}`);
      resolve(code ?? 1);
    });
  });
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
const count = (name, status) => {
  statuses.push([name, status]);
  if (status === 0) passed += 1;
  else failed += 1;
};

// The typecheck and the lint are one process each, mostly on one core: side by side.
const [typecheck, lint] = await timed("typecheck + lint (side by side)", () =>
  Promise.all([
    run("typecheck", "npx", ["tsc", "--noEmit"], { quiet: true }),
    // The layering of DESIGN.md §2 (eslint.config.mjs): a runner → session import or an app → server import fails.
    run("layering lint", "npx", ["eslint", "--max-warnings", "0", "server", "app"], { quiet: true }),
  ]),
);
count("typecheck", typecheck);
count("lint", lint);

/** One Vitest project: its tests counted from its JSON report; coverage kept for the merge (a blob). */
async function vitestProject(project) {
  const json = join(reports, `${project}.json`);
  const status = await timed(`${project} tests`, () =>
    run(
      `${project} tests`,
      "npx",
      [
        "vitest",
        "run",
        "--project",
        project,
        "--coverage",
        "--reporter=default",
        "--reporter=json",
        `--outputFile.json=${json}`,
        "--reporter=blob",
        `--outputFile.blob=${join(blobs, `${project}.json`)}`,
      ],
      { extraEnv: { COVERAGE_PARTIAL: "1" } },
    ),
  );
  statuses.push([project, status]);
  const report = readJson(json);
  if (report) {
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    // A file that failed to load has no failed test, but it failed.
    failed += (report.testResults ?? []).filter(
      (file) => file.status === "failed" && file.assertionResults.every((test) => test.status !== "failed"),
    ).length;
  } else if (status !== 0) failed += 1;
  return report;
}

const vitestReports = [await vitestProject("unit"), await vitestProject("integration")];

// One coverage figure for both projects, held to the committed floor (vitest.config.ts reads it).
const coverage = await timed("coverage merge", () =>
  run("coverage of unit + integration (merged, V8)", "npx", [
    "vitest",
    "run",
    `--merge-reports=${blobs}`,
    "--coverage",
    "--reporter=json",
    `--outputFile.json=${join(reports, "merged.json")}`,
  ]),
);
const summary = readJson(join(root, "coverage", "coverage-summary.json"))?.total;
const floor = readJson(join(root, "coverage-floor.json"));
const below = summary && floor ? Object.keys(floor).filter((key) => summary[key]?.pct < floor[key]) : [];
// The merge exits non-zero when a test failed (already counted) or coverage is below the floor.
count("coverage floor", summary && below.length === 0 ? 0 : 1);
if (coverage !== 0 && below.length === 0 && !summary) console.error("coverage: no summary was written");

const build = await timed("page build", () => run("page build", "node", ["scripts/ensure-build.mjs"]));
statuses.push(["page build", build]);
if (build !== 0) failed += 1;
else {
  // Outside test-results/: Playwright empties that folder when it starts.
  const playwrightReport = join(reports, "playwright.json");
  const playwright = await timed("browser tests (e2e)", () =>
    // Two workers: every test starts its own server (e2e/fixtures.ts), and a test mostly waits on the page.
    run("browser tests", "npx", ["playwright", "test", "--workers=2", "--reporter=list,json"], {
      extraEnv: { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport },
    }),
  );
  statuses.push(["playwright", playwright]);
  const stats = readJson(playwrightReport)?.stats;
  if (stats) {
    passed += stats.expected ?? 0;
    failed += (stats.unexpected ?? 0) + (stats.flaky ?? 0);
    skipped += stats.skipped ?? 0;
  } else if (playwright !== 0) failed += 1;
}

const slowest = vitestReports
  .flatMap((report) => report?.testResults ?? [])
  .map((file) => ({ file: file.name.slice(root.length), seconds: (file.endTime - file.startTime) / 1000 }))
  .sort((left, right) => right.seconds - left.seconds)
  .slice(0, 8);
if (slowest.length > 0) {
  console.log("\nslowest test files (wall seconds, Vitest's own timing):");
  for (const { file, seconds } of slowest) console.log(`  ${seconds.toFixed(1).padStart(6)}  ${file}`);
}
console.log("\ntime per step (wall; CPU = user + system of the step's processes, from /proc):");
for (const { label, wallSeconds, cpu } of timings) {
  const cpuText = cpu
    ? `, CPU ${(cpu[0] + cpu[1]).toFixed(1)} s (user ${cpu[0].toFixed(1)}, sys ${cpu[1].toFixed(1)})`
    : "";
  console.log(`  ${label}: ${wallSeconds.toFixed(1)} s${cpuText}`);
}
if (summary && floor) {
  const figures = ["lines", "statements", "functions", "branches"].map(
    (key) => `${key} ${summary[key].pct}% (floor ${floor[key]}%)`,
  );
  console.log(`\ncoverage (V8, unit + integration, coverage/coverage-summary.json): ${figures.join(", ")}`);
  if (below.length > 0)
    console.log(`coverage fell below the floor in ${below.join(", ")}: see coverage-floor.json`);
  else console.log("raise the floor to these figures with `npm run coverage:raise`");
}
const broken = statuses.filter(([, status]) => status !== 0).map(([name]) => name);
console.log(
  `\nsteps: ${statuses.map(([name, status]) => `${name} ${status === 0 ? "ok" : "FAILED"}`).join(", ")}`,
);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(broken.length === 0 && failed === 0 ? 0 : 1);
