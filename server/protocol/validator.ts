// The one JSON Schema validator of the server: one compile function returning a result union, one
// formatter for its errors. Wire frames (./schemas.ts), tools.json files, every tool's input schema (the
// Registry) and MCP servers' output schemas are checked through it. The pages never import this module.
//
// Dialects, as schemas in the field declare them with `$schema`: draft-07 (and draft-06, read as
// draft-07, which only adds keywords), 2019-09 and 2020-12, each by ajv's own class for it. A schema
// without `$schema` is read as 2020-12 (the MCP default dialect) unless it uses draft-07's shapes
// (`items` as a list, `additionalItems`, `dependencies`), which 2020-12 replaced. Formats (`email`,
// `date`, `uri`, …) are checked (ajv-formats). Any other `$schema` does not compile: the caller decides
// (the Registry refuses the tool; an MCP tool is registered with its arguments unchecked and a warning).
//
// In a schema from outside (compileValidator: skills, MCP servers), every `pattern` and
// `patternProperties` runs in the linear-time engine (./linear-regex.ts, S18): a backtracking RegExp on
// the shared event loop is a way to freeze every session. A pattern that engine cannot run makes the
// schema not compile, with the pointer of the pattern in the schema (`pointer`) — never a fallback to
// RegExp. Only the server's own schemas (mustCompile) keep RegExp for the patterns written here.
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from "ajv";
import type { RegExpEngine } from "ajv/dist/types/index.js";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { linearRegExp, PatternError } from "./linear-regex.ts";

export type Dialect = "draft-07" | "2019-09" | "2020-12";

const CANONICAL_URI: Record<Dialect, string> = {
  "draft-07": "http://json-schema.org/draft-07/schema#",
  "2019-09": "https://json-schema.org/draft/2019-09/schema",
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
};

/** `$schema` values by dialect: http or https, with or without the empty fragment. */
const DECLARED: [RegExp, Dialect][] = [
  [/^https?:\/\/json-schema\.org\/draft-0[67]\/schema#?$/, "draft-07"],
  [/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, "2019-09"],
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, "2020-12"],
];

const regExp: RegExpEngine = Object.assign(
  (pattern: string, flags: string) => {
    const regex = linearRegExp(pattern, flags);
    // ajv keys compiled patterns by their string form: it must differ between patterns.
    return { test: regex.test, toString: () => `/${pattern}/${flags}` };
  },
  { code: "linearRegExp" },
);

/** `strict: false`: tool input schemas come from skills and MCP servers, which use keywords ajv does not know. */
const options: Options = { allErrors: true, strict: false, code: { regExp } };

type Provenance = "outside" | "own";

/** One ajv instance per dialect and provenance, made on first use, with formats. */
const instances = new Map<string, Ajv>();
function instance(dialect: Dialect, provenance: Provenance): Ajv {
  const key = `${provenance} ${dialect}`;
  let ajv = instances.get(key);
  if (!ajv) {
    // The server's own schemas (wire frames, the tools.json format) have patterns written in this repo, each
    // a single character class or quantifier, which RegExp runs in linear time, 100 times faster than the
    // RE2 port on a 700 KB upload chunk. Every schema from outside runs its patterns in RE2.
    const own = provenance === "own" ? { ...options, code: {} } : options;
    ajv = dialect === "2020-12" ? new Ajv2020(own) : dialect === "2019-09" ? new Ajv2019(own) : new Ajv(own);
    addFormats(ajv);
    instances.set(key, ajv);
  }
  return ajv;
}

export interface ValidationIssue {
  /** JSON pointer of the value, "" for the root. */
  path: string;
  keyword: string;
  /** What is wrong, including the allowed value or the unknown field when ajv says which. */
  message: string;
  /** For an unknown field: its name (its own pointer is `${path}/${field}`). */
  field?: string;
}

export type Validation<T> =
  { ok: true; value: T } | { ok: false; issues: ValidationIssue[]; message: string };

export interface Validator<T> {
  (value: unknown): Validation<T>;
  /** The schema as given. */
  readonly schema: object;
}

export type CompiledValidator<T> =
  | { ok: true; validator: Validator<T> }
  /** `pointer`: where in the schema the problem is, when it is one place (a pattern, `$schema`). */
  | { ok: false; message: string; pointer?: string };

/** A compile failure as one line: `/properties/code/pattern: pattern "…" cannot run …`. */
export function describeSchemaProblem(problem: { message: string; pointer?: string }): string {
  return problem.pointer === undefined ? problem.message : `${problem.pointer}: ${problem.message}`;
}

/**
 * Compiled validators by dialect and schema text. ajv keeps the generated code of every compile for the
 * life of its instance, so the same schema text (a skill loaded again, a reload, many sessions) is
 * compiled once.
 */
const compiled = new Map<string, ValidateFunction>();

/** Which dialect `schema` is read in, or why none (an unknown `$schema`). */
export function dialectOf(schema: object): { ok: true; dialect: Dialect } | { ok: false; message: string } {
  const declared = (schema as { $schema?: unknown }).$schema;
  if (declared === undefined)
    return { ok: true, dialect: usesDraft07Shapes(schema) ? "draft-07" : "2020-12" };
  const found = typeof declared === "string" ? DECLARED.find(([uri]) => uri.test(declared)) : undefined;
  if (found) return { ok: true, dialect: found[1] };
  const named = /draft-0?4\b/.test(String(declared)) ? " (draft-04)" : "";
  return {
    ok: false,
    message: `the dialect ${JSON.stringify(declared)}${named} is not validated here (draft-06, draft-07, 2019-09 and 2020-12 are)`,
  };
}

/** Keywords whose value maps names to subschemas (the names are not keywords). */
const NAMED_SUBSCHEMAS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
]);
/** Keywords whose value is data, not schema. */
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples"]);

/** `items` as a list, `additionalItems` or `dependencies` in any subschema: draft-07's spellings. */
function usesDraft07Shapes(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return false;
  return Object.entries(schema).some(([key, inner]) => {
    if (key === "additionalItems" || key === "dependencies" || (key === "items" && Array.isArray(inner)))
      return true;
    if (DATA_KEYWORDS.has(key) || typeof inner !== "object" || inner === null) return false;
    if (NAMED_SUBSCHEMAS.has(key)) return Object.values(inner).some(usesDraft07Shapes);
    return Array.isArray(inner) ? inner.some(usesDraft07Shapes) : usesDraft07Shapes(inner);
  });
}

/**
 * Compiles a schema from outside the server (a skill's tools.json, an MCP server); a schema that cannot be
 * compiled is a result, never a throw.
 */
export function compileValidator<T = unknown>(
  schema: object,
  options: { root?: string } = {},
): CompiledValidator<T> {
  return compile<T>(schema, options, "outside");
}

function compile<T>(
  schema: object,
  options: { root?: string },
  provenance: Provenance,
): CompiledValidator<T> {
  const dialect = dialectOf(schema);
  if (!dialect.ok) return { ok: false, message: dialect.message, pointer: "/$schema" };
  const key = `${provenance} ${dialect.dialect}\n${JSON.stringify(schema)}`;
  let validate = compiled.get(key);
  if (!validate) {
    const ajv = instance(dialect.dialect, provenance);
    // The dialect's own URI, as its ajv class registered it (`https://…draft-07…` would not resolve).
    const given = schema as { $schema?: unknown };
    const input =
      given.$schema === undefined ? schema : { ...schema, $schema: CANONICAL_URI[dialect.dialect] };
    try {
      validate = ajv.compile(input);
    } catch (error) {
      if (error instanceof PatternError) {
        const pointer = patternPointer(schema, error.pattern);
        return { ok: false, message: error.message, ...(pointer ? { pointer } : {}) };
      }
      return { ok: false, message: error instanceof Error ? error.message : String(error) };
    } finally {
      // The compiled function stays usable; the instance forgets the schema object (no `$id` clashes).
      ajv.removeSchema(input);
    }
    compiled.set(key, validate);
  }
  const check = validate;
  const root = options.root ?? "(root)";
  const validator = ((value: unknown): Validation<T> => {
    if (check(value)) return { ok: true, value: value as T };
    const issues = (check.errors ?? []).map(describeIssue);
    return { ok: false, issues, message: formatIssues(issues, root) };
  }) as Validator<T>;
  Object.defineProperty(validator, "schema", { value: schema });
  return { ok: true, validator };
}

/**
 * Like compileValidator, for the server's own schemas (written in this repo): a schema that does not
 * compile is a bug. Never for a schema that comes from outside (S18).
 */
export function mustCompile<T = unknown>(schema: object, options: { root?: string } = {}): Validator<T> {
  let compiled: Validator<T> | undefined;
  const compileNow = (): Validator<T> => {
    if (compiled) return compiled;
    const result = compile<T>(schema, options, "own");
    if (!result.ok) {
      // Reported once, to the caller that tried it: compileOwnSchemas() (run by a test that may share this
      // module with others) does not report it a second time.
      pending.delete(compileNow);
      throw new Error(`internal schema does not compile: ${result.message}`);
    }
    compiled = result.validator;
    return compiled;
  };
  // Compiled on first use: the server holds a schema per client command and per log event, and compiling
  // them all when the modules load cost `npm start` about a third of a second before its URL.
  // compileOwnSchemas() compiles every one now (the tests do, so a broken schema still fails a test).
  pending.add(compileNow);
  const validator = ((value: unknown) => compileNow()(value)) as Validator<T>;
  Object.defineProperty(validator, "schema", { value: schema });
  compilers.set(validator, { compile: compileNow, compiled: () => compiled !== undefined });
  return validator;
}

const pending = new Set<() => unknown>();
/** Each mustCompile validator's compile step, for compileSoon. */
const compilers = new WeakMap<Validator<unknown>, { compile(): unknown; compiled(): boolean }>();

/**
 * Compiles these mustCompile validators one at a time, each in its own turn of the event loop (a page's
 * requests and socket frames go between two compiles), until all are compiled or `stop` is called. For
 * the schemas the first use of a feature would otherwise compile in the middle of its work: a server
 * calls it once it listens, so the first reopen of a session does not wait for its log's schemas (about
 * 0.2 s on a loaded machine). A validator compiled already is skipped; one that does not compile throws
 * on its first use, as before (a bug: compileOwnSchemas in a test reports it).
 *
 * `warm`: each validator compiled here is also run `runs` times on `sample(validator)` in that turn.
 * A validator checked thousands of times in one go (every record of a session log) runs its first
 * thousand calls in V8's interpreter otherwise, which costs the first reopen about as much again as all
 * later ones; warmed, that work is done while the server waits for its first page. A validator with no
 * sample (undefined) is compiled only.
 */
export function compileSoon(
  validators: readonly Validator<unknown>[],
  options: { warm?: { runs: number; sample(validator: Validator<unknown>): unknown } } = {},
): {
  stop(): void;
  /** How many this call compiled, once it is through or stopped. */
  done: Promise<number>;
} {
  let stopped = false;
  const done = (async () => {
    let count = 0;
    for (const validator of validators) {
      const step = compilers.get(validator);
      if (!step || step.compiled()) continue;
      await new Promise((resolve) => setImmediate(resolve));
      if (stopped) break;
      try {
        step.compile();
        count += 1;
      } catch {
        // A bug in one of our schemas: its first use throws the same error, where the caller sees it.
        continue;
      }
      const sample = options.warm?.sample(validator);
      if (sample !== undefined) for (let run = 0; run < options.warm!.runs; run++) validator(sample);
    }
    return count;
  })();
  return { stop: () => void (stopped = true), done };
}

/** Compiles every mustCompile schema made so far; throws on the first that does not compile. */
export function compileOwnSchemas(): number {
  for (const compileNow of pending) compileNow();
  return pending.size;
}

/** JSON pointer of the first `pattern` or `patternProperties` key equal to `pattern`, for the message. */
function patternPointer(value: unknown, pattern: string, at = ""): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value);
  for (const [key, inner] of entries) {
    const here = `${at}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    if (key === "pattern" && inner === pattern) return here;
    if (
      key === "patternProperties" &&
      typeof inner === "object" &&
      inner !== null &&
      Object.hasOwn(inner, pattern)
    )
      return `${here}/${pattern.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    const found = patternPointer(inner, pattern, here);
    if (found) return found;
  }
  return undefined;
}

function describeIssue(error: ErrorObject): ValidationIssue {
  const params = error.params as Record<string, unknown>;
  const issue: ValidationIssue = {
    path: error.instancePath,
    keyword: error.keyword,
    message: error.message ?? "is invalid",
  };
  if (error.keyword === "const") issue.message = `must be ${JSON.stringify(params.allowedValue)}`;
  else if (error.keyword === "enum") {
    issue.message = `must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(", ")}`;
  } else if (error.keyword === "additionalProperties" || error.keyword === "unevaluatedProperties") {
    issue.field = String(params.additionalProperty ?? params.unevaluatedProperty);
    issue.message = `has an unknown field ${JSON.stringify(issue.field)}`;
  }
  return issue;
}

/** `/tools/0/command must be array; (root) has an unknown field "x"` — at most `limit` issues. */
export function formatIssues(issues: readonly ValidationIssue[], root = "(root)", limit = 5): string {
  const shown = issues.slice(0, limit).map((issue) => `${issue.path || root} ${issue.message}`);
  const more = issues.length > limit ? `; and ${issues.length - limit} more` : "";
  return shown.join("; ") + more;
}
