// INTERFACE STUB — implemented by the tools/process owner (issue 3).
/** Characters of tool output the model sees; the UI keeps the full output up to 1 MiB. */
export const MODEL_OUTPUT_CAP = 30_000;
export const UI_OUTPUT_CAP_BYTES = 1024 * 1024;

export interface CappedText {
  text: string;
  truncated: boolean;
  omittedChars: number;
}

/** Keeps head and tail of `text` with a marker saying how much was cut. */
export function capForModel(text: string, cap: number = MODEL_OUTPUT_CAP): CappedText {
  if (text.length <= cap) return { text, truncated: false, omittedChars: 0 };
  const half = Math.floor((cap - 100) / 2);
  const omitted = text.length - 2 * half;
  return {
    text: `${text.slice(0, half)}\n\n[… ${omitted} characters cut from the middle …]\n\n${text.slice(-half)}`,
    truncated: true,
    omittedChars: omitted,
  };
}
