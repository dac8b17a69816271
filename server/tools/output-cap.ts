/** Characters of tool output the model sees; the UI keeps the full output up to 1 MiB. */
export const MODEL_OUTPUT_CAP = 30_000;
export const UI_OUTPUT_CAP_BYTES = 1024 * 1024;

export interface CappedText {
  text: string;
  truncated: boolean;
  omittedChars: number;
}

/** Room left for the marker inside the cap, so the capped text never exceeds `cap`. */
const MARKER_ROOM = 100;

/**
 * Keeps head and tail of `text` with a marker saying how much was cut. The result is at most `cap`
 * characters (head and tail carry the start of the output and its final lines, usually the error).
 */
export function capForModel(text: string, cap: number = MODEL_OUTPUT_CAP): CappedText {
  if (text.length <= cap) return { text, truncated: false, omittedChars: 0 };
  const keep = Math.max(0, cap - MARKER_ROOM);
  const headLength = Math.ceil(keep / 2);
  const tailLength = keep - headLength;
  const omitted = text.length - headLength - tailLength;
  const marker = `\n\n[… ${omitted} of ${text.length} characters cut from the middle …]\n\n`;
  const head = text.slice(0, headLength);
  const tail = tailLength > 0 ? text.slice(text.length - tailLength) : "";
  return { text: `${head}${marker}${tail}`, truncated: true, omittedChars: omitted };
}

/** The UI's copy: the whole output up to 1 MiB (UTF-8 bytes), head and tail kept beyond that. */
export function capForUi(text: string, capBytes: number = UI_OUTPUT_CAP_BYTES): CappedText {
  // Characters are at most 4 bytes; text.length (UTF-16 units) ≤ bytes, so this quick test is exact enough.
  if (text.length <= capBytes / 4 || Buffer.byteLength(text, "utf8") <= capBytes) {
    return { text, truncated: false, omittedChars: 0 };
  }
  // Approximate the byte budget in characters; 1 MiB is a memory bound, not a precise contract.
  const ratio = text.length / Buffer.byteLength(text, "utf8");
  return capForModel(text, Math.max(MARKER_ROOM * 2, Math.floor(capBytes * ratio)));
}
