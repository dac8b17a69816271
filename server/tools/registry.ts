import { compileValidator, type Validator } from "../protocol/validator.ts";
import type { Tool, ToolContext, ToolDefinition, ToolExecution, ToolFailure, ToolTarget } from "./types.ts";
import { failResult } from "./types.ts";

/** What a tool with `inputCheck: "object"` is checked against. */
const ANY_OBJECT = { type: "object" };

/** A call whose input passed its tool's schema: the only way to describe or execute a registered tool. */
export interface PreparedCall {
  definition: ToolDefinition;
  /** The permission target (command, path, stdin) of this input. May throw: the caller reports it. */
  describe(workdir: string): ToolTarget;
  execute(context: ToolContext): Promise<ToolExecution>;
}

export interface DefinitionFilter {
  /** Only tools of this safety (plan mode exposes read_only only). */
  safety?: ToolDefinition["safety"];
  /** Only these names. */
  names?: readonly string[];
}

/**
 * The tools a session can call. Registered is not visible: the Runner snapshots `definitions()` once per
 * run, so a tool registered during a run is callable (isKnown) but not in that run's definitions.
 */
export class Registry {
  private readonly tools = new Map<string, { tool: Tool<never>; validate: Validator<unknown> }>();
  private readonly protectedNames = new Set<string>();

  /** Registers a tool; a name that is already taken is an error. */
  register<Input>(tool: Tool<Input>, options: { protected?: boolean } = {}): void {
    const name = tool.definition.name;
    if (this.tools.has(name)) throw new Error(`tool "${name}" is already registered`);
    this.put(tool);
    if (options.protected) this.protectedNames.add(name);
  }

  /** Registers or replaces a tool. Protected (system) tools cannot be replaced: returns false. */
  registerOrReplace<Input>(tool: Tool<Input>): boolean {
    if (this.protectedNames.has(tool.definition.name)) return false;
    this.put(tool);
    return true;
  }

  unregister(name: string): boolean {
    if (this.protectedNames.has(name)) return false;
    return this.tools.delete(name);
  }

  isKnown(name: string): boolean {
    return this.tools.has(name);
  }

  isProtected(name: string): boolean {
    return this.protectedNames.has(name);
  }

  /** The tool itself, e.g. to read its definition; calls go through `prepare`. */
  get(name: string): Tool<never> | undefined {
    return this.tools.get(name)?.tool;
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /** Definitions in registration order, optionally filtered. Returns copies, safe to snapshot. */
  definitions(filter: DefinitionFilter = {}): ToolDefinition[] {
    const wanted = filter.names ? new Set(filter.names) : undefined;
    const out: ToolDefinition[] = [];
    for (const { tool } of this.tools.values()) {
      const definition = tool.definition;
      if (filter.safety && definition.safety !== filter.safety) continue;
      if (wanted && !wanted.has(definition.name)) continue;
      out.push(structuredClone(definition));
    }
    return out;
  }

  /** Validates input against the tool's schema. Returns a failure result the model can read, or null. */
  validate(name: string, input: unknown): ToolFailure | null {
    const prepared = this.prepare(name, input);
    return prepared.ok ? null : prepared.result;
  }

  /**
   * Validates a call's input once, against the tool's schema, and binds it: the returned call describes
   * and executes with the typed input its tool declared (`defineTool<Input>`). Unknown tool or invalid
   * input → the failure the model reads.
   */
  prepare(
    name: string,
    input: unknown,
  ): { ok: true; call: PreparedCall } | { ok: false; result: ToolFailure } {
    const entry = this.tools.get(name);
    if (!entry) return { ok: false, result: failResult(name, "unknown_tool", `unknown tool "${name}"`) };
    const checked = entry.validate(input);
    if (!checked.ok) {
      return {
        ok: false,
        result: failResult(name, "invalid_arguments", `invalid arguments for ${name}: ${checked.message}`),
      };
    }
    const { tool } = entry;
    // The schema admitted the value, so it is the tool's Input (erased to `never` in the map).
    const valid = checked.value as never;
    return {
      ok: true,
      call: {
        definition: tool.definition,
        describe: (workdir) => tool.describe(valid, { workdir }),
        execute: (context) => tool.execute(valid, context),
      },
    };
  }

  /** A schema that does not compile is refused here (tools.json problems are caught at load already). */
  private put<Input>(tool: Tool<Input>): void {
    const compiled = compileValidator(
      tool.inputCheck === "object" ? ANY_OBJECT : tool.definition.inputSchema,
      {
        root: "(input)",
      },
    );
    if (!compiled.ok)
      throw new Error(
        `tool "${tool.definition.name}" has an input schema that does not compile: ${compiled.message}`,
      );
    this.tools.set(tool.definition.name, { tool, validate: compiled.validator });
  }
}
