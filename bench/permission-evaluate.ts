// Permission evaluate: what one `PermissionEngine.evaluate` of a run_command line costs — the shell parse
// in two dialects (mvdan-sh), the walk, the dangerous list and the rules — for ordinary lines a model
// sends, and for the worst 30 KB line of several adversarial shapes, in the same run. Every line is new
// to the engine (a number in it changes each time), so the analysis cache never answers.
import { PermissionEngine, parseRule, type CompiledRule } from "../server/permission/index.ts";
import type { PermissionCheck } from "../server/permission/types.ts";
import { createSystemTools } from "../server/tools/system/index.ts";
import { median, round, type Figure, type FigureRow } from "./harness.ts";

const WORKDIR = "/work/project";
const ADVERSARIAL_LENGTH = 30 * 1024;

/** Lines of the kind models send, with a slot (`#`) for the number that keeps each one new. */
const ORDINARY: string[] = [
  "git status --short",
  "git log --oneline -n # -- src/",
  "git diff HEAD~# -- server/permission/engine.ts | head -n 200",
  "npm test -- --run server/x#.test.ts",
  "ls -la src/components/#",
  "grep -rn 'TODO #' src --include='*.ts'",
  "cat package.json | jq '.scripts' > /tmp/scripts#.json",
  "cd server && npx tsc --noEmit -p tsconfig.json; echo done #",
  "find . -name '*.md' -newer README.md -maxdepth #",
  "python3 -c 'print(#)'",
  "mkdir -p build/# && cp -r assets build/#/",
  "sed -n '1,#p' README.md",
];

/** 30 KB lines that make the parser and the walk work hardest, each made of one repeated unit. */
const ADVERSARIAL: Record<string, (index: number) => string> = {
  "commands (echo aN;)": (index) => `echo a${index}; `,
  "pipeline (aN |)": (index) => `a${index} | `,
  "substitutions (x $(y N))": (index) => `x $(y ${index}) `,
  "sh -c scripts": (index) => `sh -c 'sh -c "echo ${index}"'; `,
  "comments ending in \\ (aN # c \\)": (index) => `a${index} # c \\\n`,
};

function adversarialLine(unit: (index: number) => string, variant: number): string {
  let line = `: ${variant}; `;
  for (let index = 0; line.length < ADVERSARIAL_LENGTH; index++) line += unit(index);
  return line.slice(0, ADVERSARIAL_LENGTH);
}

function rules(...texts: string[]): CompiledRule[] {
  return texts.map((text) => {
    const [effect, ...rest] = text.split(" ");
    const rule = parseRule(effect as "allow" | "deny", rest.join(" "), "bench settings");
    if (typeof rule === "string") throw new Error(rule);
    return rule;
  });
}

export const permissionEvaluateFigure: Figure = {
  name: "permission-evaluate",
  workload: "PermissionEngine.evaluate of a run_command line (parse ×2 dialects, walk, rules); uncached",
  target: "report (µs per evaluate; adversarial vs ordinary)",
  async run({ quick }): Promise<FigureRow[]> {
    const tool = createSystemTools().find((candidate) => candidate.definition.name === "run_command");
    if (!tool) throw new Error("no run_command tool");
    const engine = new PermissionEngine({
      sandbox: { enabled: true, mechanism: "bubblewrap", network: false },
      rules: rules("allow run_command(git *)", "allow run_command(ls *)", "deny run_command(rm *)"),
    });
    let variant = 0;
    const evaluateMicros = (line: string): number => {
      const check: PermissionCheck = {
        callId: `bench-${variant}`,
        tool: tool.definition,
        input: { command: line },
        target: { cwd: WORKDIR, command: line },
      };
      const started = performance.now();
      engine.evaluate(check);
      return (performance.now() - started) * 1000;
    };

    const ordinaryRounds = quick ? 5 : 25;
    const adversarialRounds = quick ? 2 : 5;
    const ordinary: number[] = [];
    const adversarial: Record<string, number[]> = {};
    // Interleaved: each round evaluates every ordinary line, then (while rounds last) each adversarial
    // shape once, so load from other processes hits both sides alike.
    for (let round = 0; round < ordinaryRounds + 1; round++) {
      for (const template of ORDINARY) {
        const micros = evaluateMicros(template.replaceAll("#", String(++variant)));
        if (round > 0) ordinary.push(micros);
      }
      if (round > adversarialRounds) continue;
      for (const [shape, unit] of Object.entries(ADVERSARIAL)) {
        const micros = evaluateMicros(adversarialLine(unit, ++variant));
        if (round > 0) (adversarial[shape] ??= []).push(micros);
      }
    }

    const ordinaryMedian = median(ordinary);
    const shapes = Object.entries(adversarial).map(([shape, samples]) => ({
      shape,
      micros: median(samples),
    }));
    const worst = shapes.reduce((slowest, shape) => (shape.micros > slowest.micros ? shape : slowest));
    const shapeMedians = Object.fromEntries(shapes.map(({ shape, micros }) => [shape, round(micros, 0)]));
    return [
      {
        figure: "permission-evaluate",
        workload: `ordinary run_command lines (${ORDINARY.length} kinds × ${ordinaryRounds} rounds), uncached`,
        unit: "µs",
        median: round(ordinaryMedian, 0),
        baselineMedian: null,
        ratio: null,
        target: "report",
        status: "report",
        note: "engine.evaluate with the real run_command definition, three rules, sandbox on",
        details: { samplesMicros: ordinary.map((value) => round(value, 0)) },
      },
      {
        figure: "permission-evaluate",
        workload: `adversarial 30 KB line, worst of ${shapes.length} shapes: ${worst.shape}`,
        unit: "µs",
        median: round(worst.micros, 0),
        baselineMedian: round(ordinaryMedian, 0),
        ratio: round(worst.micros / ordinaryMedian, 1),
        target: "report (the server's event loop is held this long)",
        status: "report",
        note: "baseline: the ordinary-line median of the same run; every shape's median is in details",
        details: { shapeMediansMicros: shapeMedians, samplesMicros: adversarial },
      },
    ];
  },
};
