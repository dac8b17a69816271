// The layering lint must really fail on the imports DESIGN.md §2 forbids. Each case lints an injected
// source text as if it were a file at that path (ESLint's lintText): nothing is written to the tree.
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = new URL("..", import.meta.url).pathname;
const eslint = new ESLint({ cwd: root });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

describe("npm run lint (layering, DESIGN.md §2)", () => {
  it("fails on a runner → transport or runner → session import", async () => {
    expect(
      await problems(
        "server/runner/injected.ts",
        'import { startServer } from "../transport/start-server.ts";\nexport const s = startServer;\n',
      ),
    ).toEqual([expect.stringContaining("server/runner is below eval, session, export, transport")]);
    expect(
      await problems(
        "server/runner/injected.ts",
        'import type { Session } from "../session/session.ts";\nexport type S = Session;\n',
      ),
    ).toEqual([expect.stringContaining("boundaries/dependencies")]);
  });

  it("fails on an app → server/session import, and on a runtime import of server/protocol", async () => {
    expect(
      await problems(
        "app/lib/injected.ts",
        'import { Session } from "../../server/session/session.ts";\nexport const s = Session;\n',
      ),
    ).toEqual([
      expect.stringContaining("the pages import server/protocol types and server/shared values only"),
    ]);
    expect(
      await problems(
        "app/lib/injected.ts",
        'import { parseClientCommand } from "../../server/protocol/schemas.ts";\nexport const p = parseClientCommand;\n',
      ),
    ).toEqual([expect.stringContaining("as types only")]);
    expect(
      await problems(
        "app/lib/injected.ts",
        'import type { SessionEvent } from "../../server/protocol/wire.ts";\nexport type E = SessionEvent;\n',
      ),
    ).toEqual([]);
  });

  it("lets the pages import values from server/shared, and nothing else new", async () => {
    expect(
      await problems(
        "app/lib/injected.ts",
        'import { costUsd } from "../../server/shared/prices.ts";\nexport const c = costUsd;\n',
      ),
    ).toEqual([]);
    // The shared module is not a door to the rest: a value of server/cache is still refused.
    expect(
      await problems(
        "app/lib/injected.ts",
        'import { priceFor } from "../../server/cache/rules.ts";\nexport const p = priceFor;\n',
      ),
    ).toEqual([expect.stringContaining("server/shared values only")]);
  });

  it("fails when server/shared imports Node, React, a package, a server module, or uses a Node global", async () => {
    const shared = "server/shared/injected.ts";
    for (const source of ["node:fs", "fs", "react", "yaml"]) {
      expect(
        await problems(shared, `import * as imported from "${source}";\nexport const i = imported;\n`),
        source,
      ).toEqual([expect.stringContaining("server/shared is pure")]);
    }
    expect(
      await problems(
        shared,
        'import type { Usage } from "../protocol/runner-events.ts";\nexport type U = Usage;\n',
      ),
    ).toEqual(expect.arrayContaining([expect.stringContaining("server/shared is below errors, protocol")]));
    expect(await problems(shared, "export const home = process.env.HOME;\n")).toEqual([
      expect.stringContaining("no Node API (process)"),
    ]);
    expect(await problems(shared, 'export const load = () => import("node:fs");\n')).toEqual([
      expect.stringContaining("no dynamic import"),
    ]);
    // What it may do: import its own files, and be imported by every layer.
    expect(
      await problems(shared, 'import { plural } from "./figures.ts";\nexport const p = plural;\n'),
    ).toEqual([]);
    expect(
      await problems(
        "server/errors/injected.ts",
        'import { plural } from "../shared/figures.ts";\nexport const p = plural;\n',
      ),
    ).toEqual([]);
  });

  it("fails when a lower layer imports a higher one or a composition root", async () => {
    expect(
      await problems(
        "server/tools/injected.ts",
        'import { Catalog } from "../skills/catalog.ts";\nexport const c = Catalog;\n',
      ),
    ).toEqual([expect.stringContaining("server/tools is below")]);
    expect(
      await problems(
        "server/session/injected.ts",
        'import { parseArgs } from "../cli/args.ts";\nexport const p = parseArgs;\n',
      ),
    ).toEqual([expect.stringContaining("composition root")]);
  });
});
