/**
 * Keeps the head and the tail of a byte stream within a fixed budget, so `yes` or 200 MB of output never
 * grows server memory. The middle is counted, not kept.
 */
export class BoundedCapture {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  /** Every byte seen, kept or not. */
  totalBytes = 0;

  constructor(maxRetainedBytes: number) {
    const budget = Math.max(2, Math.floor(maxRetainedBytes));
    this.headLimit = Math.floor(budget / 2);
    this.tailLimit = budget - this.headLimit;
  }

  push(chunk: Buffer): void {
    this.totalBytes += chunk.length;
    let rest = chunk;
    if (this.headBytes < this.headLimit) {
      const take = Math.min(this.headLimit - this.headBytes, rest.length);
      this.head.push(rest.subarray(0, take));
      this.headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    if (rest.length >= this.tailLimit) {
      // Copy so a huge chunk's backing buffer is not kept alive by a small view.
      this.tail = [Buffer.from(rest.subarray(rest.length - this.tailLimit))];
      this.tailBytes = this.tailLimit;
      return;
    }
    this.tail.push(rest);
    this.tailBytes += rest.length;
    this.trimTail();
  }

  get truncated(): boolean {
    return this.totalBytes > this.headBytes + this.tailBytes;
  }

  /** Head, a marker saying how many bytes were cut, and tail, decoded as UTF-8. */
  text(): string {
    const head = Buffer.concat(this.head).toString("utf8");
    const tail = Buffer.concat(this.tail).toString("utf8");
    if (!this.truncated) return head + tail;
    const omitted = this.totalBytes - this.headBytes - this.tailBytes;
    return `${head}\n[… ${omitted} bytes of output cut from the middle (${this.totalBytes} bytes in all) …]\n${tail}`;
  }

  private trimTail(): void {
    while (this.tailBytes > this.tailLimit) {
      const first = this.tail[0]!;
      const excess = this.tailBytes - this.tailLimit;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
      }
    }
  }
}
