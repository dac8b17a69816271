// An MCP server's schemas go through the one validator seam (compileValidator): its tools' input schemas
// (the Registry checks every call's arguments) and their output schemas (the SDK client checks each
// call's structured content with the validator it is given — by default its own ajv, with JavaScript's
// backtracking RegExp, on the event loop every session shares: S18). Servers publish draft-07, 2019-09
// and 2020-12; a schema that still cannot be compiled never drops its tool: the tool is registered with
// that check off, and the server's row says so.
import type { jsonSchemaValidator, JsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/index.js";
import { compileValidator, describeSchemaProblem } from "../protocol/validator.ts";

/** Why `schema` cannot be compiled here (a pattern RE2 cannot run, an unknown `$schema`…), or undefined. */
export function schemaProblem(schema: unknown): string | undefined {
  if (typeof schema !== "object" || schema === null) return "the schema is not an object";
  const compiled = compileValidator(schema);
  return compiled.ok ? undefined : describeSchemaProblem(compiled);
}

/**
 * The SDK client's output-schema validator, through compileValidator. A schema that cannot be compiled
 * checks nothing (readTools has already put a warning on the server's row) — the call still works.
 */
export const outputSchemaValidator: jsonSchemaValidator = {
  getValidator<T>(schema: unknown): JsonSchemaValidator<T> {
    const compiled =
      typeof schema === "object" && schema !== null
        ? compileValidator<T>(schema, { root: "(structured content)" })
        : undefined;
    if (!compiled?.ok) return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
    const validate = compiled.validator;
    return (input) => {
      const checked = validate(input);
      return checked.ok
        ? { valid: true, data: checked.value, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: checked.message };
    };
  },
};
