// The one JSON Schema validator of the server: one ajv instance, one compile function returning a result
// union, one formatter for its errors. Wire frames (./schemas.ts), tools.json files and every tool's
// input schema (the Registry) are checked through it. The pages never import this module.
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";

/** `strict: false`: tool input schemas come from skills and MCP servers, which use keywords ajv does not know. */
const ajv = new Ajv({ allErrors: true, strict: false });

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

export type CompiledValidator<T> = { ok: true; validator: Validator<T> } | { ok: false; message: string };

/**
 * Compiled validators by schema text. ajv keeps the generated code of every compile for the life of its
 * instance, so the same schema text (a skill loaded again, a reload, many sessions) is compiled once.
 */
const compiled = new Map<string, ValidateFunction>();

/** Compiles `schema`; a schema ajv cannot compile is a result, never a throw. */
export function compileValidator<T = unknown>(
  schema: object,
  options: { root?: string } = {},
): CompiledValidator<T> {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    try {
      validate = ajv.compile(schema);
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : String(error) };
    } finally {
      // The compiled function stays usable; the instance forgets the schema object (no `$id` clashes).
      ajv.removeSchema(schema);
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

/** Like compileValidator, for the server's own schemas: a schema that does not compile is a bug. */
export function mustCompile<T = unknown>(schema: object, options: { root?: string } = {}): Validator<T> {
  const result = compileValidator<T>(schema, options);
  if (!result.ok) throw new Error(`internal schema does not compile: ${result.message}`);
  return result.validator;
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
  } else if (error.keyword === "additionalProperties") {
    issue.field = String(params.additionalProperty);
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
