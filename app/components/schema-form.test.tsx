// The fields a tool's input schema gets (React's server renderer, no browser): a text field is a
// textarea, so a file's content can hold newlines; numbers, flags and enums keep their own controls.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { buildInput, SchemaForm } from "./schema-form.tsx";

const schema = {
  type: "object",
  properties: {
    path: { type: "string" },
    content: { type: "string" },
    lines: { type: "integer" },
    force: { type: "boolean" },
    mode: { type: "string", enum: ["a", "b"] },
  },
  required: ["path", "content"],
};

describe("SchemaForm", () => {
  it("gives each text field a textarea and keeps the other controls", () => {
    const html = renderToStaticMarkup(
      <SchemaForm schema={schema} testId="f" submitLabel="Add" onSubmit={() => undefined} />,
    );
    expect(html).toMatch(/<textarea[^>]*data-testid="f-field-path"/);
    expect(html).toMatch(/<textarea[^>]*data-testid="f-field-content"/);
    expect(html).toMatch(/<input[^>]*data-testid="f-field-lines"[^>]*type="number"/);
    expect(html).toMatch(/<input[^>]*data-testid="f-field-force"[^>]*type="checkbox"/);
    expect(html).toMatch(/<select[^>]*data-testid="f-field-mode"/);
  });

  it("passes a text field's newlines into the call's input as typed", () => {
    const properties = [
      { name: "path", schema: { type: "string" }, required: true },
      { name: "content", schema: { type: "string" }, required: true },
    ];
    expect(buildInput(properties, { path: "a.md", content: "# A\n\nbody\n" })).toEqual({
      input: { path: "a.md", content: "# A\n\nbody\n" },
    });
  });
});
