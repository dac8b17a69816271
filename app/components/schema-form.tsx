// A form generated from a JSON Schema object: one field per property (text, number, checkbox, select
// for enums, JSON for nested values), plus a raw-JSON mode for anything the fields cannot express.
// A text field keeps newlines (a file's content, a message): Enter still adds the call as it always did,
// Shift+Enter starts a new line (as in the message box), and the field grows with its lines.
"use client";
import { useState } from "react";
import type { JsonSchema } from "../../server/protocol/index.ts";

interface Property {
  name: string;
  schema: JsonSchema;
  required: boolean;
}

function propertiesOf(schema: JsonSchema): Property[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return Object.entries(properties).map(([name, propertySchema]) => ({
    name,
    schema: propertySchema,
    required: required.includes(name),
  }));
}

function typeOf(schema: JsonSchema): string {
  const type = schema.type;
  return Array.isArray(type) ? String(type[0]) : typeof type === "string" ? type : "json";
}

/** Turns the field strings into the input object the tool expects. Returns an error text when it cannot. */
export function buildInput(
  properties: Property[],
  values: Record<string, string>,
): { input?: Record<string, unknown>; error?: string } {
  const input: Record<string, unknown> = {};
  for (const property of properties) {
    const raw = values[property.name] ?? "";
    const type = typeOf(property.schema);
    if (raw === "" && type !== "boolean") {
      if (property.required) return { error: `"${property.name}" is required` };
      continue;
    }
    if (type === "number" || type === "integer") {
      const number = Number(raw);
      if (Number.isNaN(number)) return { error: `"${property.name}" must be a number` };
      input[property.name] = number;
    } else if (type === "boolean") input[property.name] = raw === "true";
    else if (type === "string") input[property.name] = raw;
    else {
      try {
        input[property.name] = JSON.parse(raw);
      } catch (error) {
        return { error: `"${property.name}" is not valid JSON: ${String(error)}` };
      }
    }
  }
  return { input };
}

export function SchemaForm({
  schema,
  testId,
  submitLabel,
  onSubmit,
  disabled,
}: {
  schema: JsonSchema;
  testId: string;
  submitLabel: string;
  onSubmit: (input: unknown) => void;
  disabled?: boolean;
}) {
  const properties = propertiesOf(schema);
  const [values, setValues] = useState<Record<string, string>>({});
  const [rawMode, setRawMode] = useState(properties.length === 0);
  const [raw, setRaw] = useState("{}");
  const [error, setError] = useState<string | undefined>(undefined);

  const submit = () => {
    if (rawMode) {
      try {
        onSubmit(JSON.parse(raw));
        setError(undefined);
      } catch (parseError) {
        setError(`Input is not valid JSON: ${String(parseError)}`);
      }
      return;
    }
    const built = buildInput(properties, values);
    if (built.error) setError(built.error);
    else {
      setError(undefined);
      onSubmit(built.input);
    }
  };

  return (
    <form
      className="space-y-1.5"
      data-testid={testId}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {!rawMode &&
        properties.map((property) => {
          const type = typeOf(property.schema);
          const fieldId = `${testId}-field-${property.name}`;
          const description =
            typeof property.schema.description === "string" ? property.schema.description : "";
          const enumValues = Array.isArray(property.schema.enum)
            ? (property.schema.enum as unknown[]).map(String)
            : undefined;
          const set = (value: string) => setValues((old) => ({ ...old, [property.name]: value }));
          return (
            <label key={property.name} className="block text-xs" htmlFor={fieldId}>
              <span className="font-mono font-semibold">{property.name}</span>
              {property.required && <span className="text-red-700"> *</span>}
              <span className="text-slate-500"> {type}</span>
              {description && <span className="block text-slate-500">{description}</span>}
              {enumValues ? (
                <select
                  id={fieldId}
                  data-testid={fieldId}
                  className="mt-0.5 w-full rounded border border-slate-300 p-1"
                  value={values[property.name] ?? ""}
                  onChange={(event) => set(event.target.value)}
                >
                  <option value="">—</option>
                  {enumValues.map((value) => (
                    <option key={value}>{value}</option>
                  ))}
                </select>
              ) : type === "boolean" ? (
                <input
                  id={fieldId}
                  data-testid={fieldId}
                  type="checkbox"
                  className="ml-2"
                  checked={values[property.name] === "true"}
                  onChange={(event) => set(String(event.target.checked))}
                />
              ) : type === "string" ? (
                <textarea
                  id={fieldId}
                  data-testid={fieldId}
                  rows={Math.min(8, (values[property.name] ?? "").split("\n").length)}
                  className="mt-0.5 w-full resize-y rounded border border-slate-300 p-1 font-mono"
                  placeholder="Shift+Enter new line"
                  value={values[property.name] ?? ""}
                  onChange={(event) => set(event.target.value)}
                  onKeyDown={(event) => {
                    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
                    event.preventDefault();
                    if (!disabled) event.currentTarget.form?.requestSubmit();
                  }}
                />
              ) : type === "number" || type === "integer" ? (
                <input
                  id={fieldId}
                  data-testid={fieldId}
                  type="number"
                  className="mt-0.5 w-full rounded border border-slate-300 p-1 font-mono"
                  value={values[property.name] ?? ""}
                  onChange={(event) => set(event.target.value)}
                />
              ) : (
                <textarea
                  id={fieldId}
                  data-testid={fieldId}
                  rows={2}
                  className="mt-0.5 w-full rounded border border-slate-300 p-1 font-mono"
                  placeholder="JSON"
                  value={values[property.name] ?? ""}
                  onChange={(event) => set(event.target.value)}
                />
              )}
            </label>
          );
        })}
      {rawMode && (
        <textarea
          data-testid={`${testId}-raw`}
          rows={4}
          className="w-full rounded border border-slate-300 p-1 font-mono text-xs"
          value={raw}
          onChange={(event) => setRaw(event.target.value)}
          aria-label="input as JSON"
        />
      )}
      {error && (
        <p className="text-xs text-red-800" role="alert" data-testid={`${testId}-error`}>
          {error}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="submit"
          disabled={disabled}
          data-testid={`${testId}-submit`}
          className="rounded border border-blue-800 bg-blue-700 px-2 py-0.5 text-xs font-medium text-white disabled:opacity-50"
        >
          {submitLabel}
        </button>
        {properties.length > 0 && (
          <button
            type="button"
            className="text-xs underline"
            data-testid={`${testId}-toggle-raw`}
            onClick={() => setRawMode(!rawMode)}
          >
            {rawMode ? "use fields" : "edit as JSON"}
          </button>
        )}
      </div>
    </form>
  );
}
