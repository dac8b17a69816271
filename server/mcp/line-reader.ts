// Newline-delimited framing of an MCP stdio stream with a per-message limit. The SDK's ReadBuffer throws
// from inside the stdout 'data' handler once its buffer passes 10 MiB, which no caller can catch: one server
// printing a large `tools/list` or tool result ended the whole playground. Here the limit is a result, not
// a throw: the caller learns that the stream broke its limit and stops that server, and only that one.
// Chunks are kept in a list until their line ends (one copy per line, not one per chunk), so a line of
// N bytes costs O(N) and never more than the limit is held.

/**
 * Bytes one MCP message may have, over stdio or HTTP: the SDK's own stdio limit (10 MiB). A server that
 * sends more is stopped.
 */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export interface LineReaderOptions {
  /** Bytes one line (one message, without its line break) may have. */
  maxLineBytes: number;
}

export type LinesRead = { lines: Buffer[] } | { overLimit: true; lines: Buffer[] };

export class LineReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private broken = false;

  constructor(private readonly options: LineReaderOptions) {}

  /**
   * The complete lines this chunk ends (without `\n`). Once a line passes the limit, `overLimit` is set,
   * the lines before it are still returned, and every later chunk is ignored (the stream is beyond repair:
   * where the next message starts is unknown).
   */
  push(chunk: Buffer): LinesRead {
    const lines: Buffer[] = [];
    if (this.broken) return { overLimit: true, lines };
    const { maxLineBytes } = this.options;
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(0x0a, start);
      if (end === -1) break;
      if (this.pendingBytes + (end - start) > maxLineBytes) return this.overLimit(lines);
      const piece = chunk.subarray(start, end);
      lines.push(this.pendingBytes === 0 ? piece : Buffer.concat([...this.pending, piece]));
      this.pending = [];
      this.pendingBytes = 0;
      start = end + 1;
    }
    if (start < chunk.length) {
      if (this.pendingBytes + (chunk.length - start) > maxLineBytes) return this.overLimit(lines);
      this.pending.push(chunk.subarray(start));
      this.pendingBytes += chunk.length - start;
    }
    return { lines };
  }

  clear(): void {
    this.pending = [];
    this.pendingBytes = 0;
  }

  private overLimit(lines: Buffer[]): LinesRead {
    this.broken = true;
    this.clear();
    return { overLimit: true, lines };
  }
}
