// Token counts (o200k_base, gpt-tokenizer) in time linear in the text. BPE merging is quadratic in the
// length of one pre-token, and o200k's split pattern leaves runs of letters, of whitespace and of
// punctuation unbounded: 32,000 spaces took ~1 s and a 200,000-character word minutes, on the main thread,
// freezing every session (a pasted message, a tool result, an MCP tool's description). So a run of one
// kind of character longer than MAX_RUN is counted in pieces of MAX_RUN. Text without such a run (nearly
// all text) is counted whole and exactly; a long run may count a token or so more per piece than the
// model's own tokenizer would. Digit runs are split in threes by the pattern itself, so MAX_RUN is a
// multiple of 3 and a cut digit run counts exactly.
import { GptEncoding } from "gpt-tokenizer/GptEncoding";
import o200kRanks from "gpt-tokenizer/bpeRanks/o200k_base";

// The encoder (gpt-tokenizer/encoding/o200k_base's, built the same way) is made on the first count rather
// than when this module loads: building its 200,000-entry tables is about a fifth of a second of CPU that
// `npm start` would otherwise spend before printing its URL, when nothing has been counted yet.
let encoder: GptEncoding | undefined;
function countTokens(text: string): number {
  encoder ??= GptEncoding.getEncodingApi("o200k_base", () => o200kRanks);
  return encoder.countTokens(text);
}

/** Characters of one kind counted in one piece at most. */
export const MAX_RUN = 120;

const LETTER = /[\p{L}\p{M}]/u;

/** 0 whitespace, 1 letter, 2 digit, 3 anything else. */
function kindOf(code: number): number {
  if (code < 128) {
    if (code === 32 || (code >= 9 && code <= 13)) return 0;
    if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122)) return 1;
    if (code >= 48 && code <= 57) return 2;
    return 3;
  }
  if (code === 0x85 || code === 0xa0 || code === 0x2028 || code === 0x2029 || code === 0x3000) return 0;
  return LETTER.test(String.fromCharCode(code)) ? 1 : 3;
}

/** The second half of a surrogate pair: a piece never starts there (that would split one character). */
function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** o200k_base tokens of `text`; a run of one kind over MAX_RUN characters is counted in pieces. */
export function countTokensBounded(text: string): number {
  let total = 0;
  let pieceStart = 0;
  let runStart = 0;
  let runKind = -1;
  for (let index = 0; index < text.length; index++) {
    const kind = kindOf(text.charCodeAt(index));
    if (kind !== runKind) {
      runKind = kind;
      runStart = index;
    } else if (index - runStart >= MAX_RUN && !isLowSurrogate(text.charCodeAt(index))) {
      total += countTokens(text.slice(pieceStart, index));
      pieceStart = index;
      runStart = index;
    }
  }
  return total + countTokens(text.slice(pieceStart));
}
