// The seam between one client and the server's protocol code: text frames in both directions, a close,
// and how much is still queued. The real server puts a `ws` WebSocket behind it (ws-transport.ts); tests
// link two in-memory ends (as the MCP TypeScript SDK's InMemoryTransport does), so a ClientConnection,
// the session hub and its sessions run against the protocol client without a socket.

/** One frame as received: JSON text, or a binary frame (refused by the protocol, kept to say so). */
export type IncomingFrame = { kind: "text"; text: string } | { kind: "binary"; bytes: number };

export interface TransportHandlers {
  message(frame: IncomingFrame): void;
  /** The other end (or this one) closed; called once. */
  close(code: number, reason: string): void;
  error?(error: Error): void;
}

export interface Transport {
  /** Begins delivering frames; frames that arrived earlier are delivered now, in order. */
  start(handlers: TransportHandlers): void;
  /** Sends one text frame; dropped once the transport is closed. */
  send(text: string): void;
  /** Closes both ends; each side's `close` handler runs once. */
  close(code?: number, reason?: string): void;
  readonly isOpen: boolean;
  /** Bytes sent but not yet taken by the other end (a client that stopped reading). */
  readonly bufferedBytes: number;
}

/** A normal close (RFC 6455 1000). */
export const NORMAL_CLOSE = 1000;

/**
 * One end of an in-memory pair. Frames are delivered asynchronously (a microtask after `send`), in order,
 * as a socket would: the sender never runs the receiver's code inside its own call.
 */
export class InMemoryTransport implements Transport {
  private peer: InMemoryTransport | undefined;
  private handlers: TransportHandlers | undefined;
  private readonly inbox: IncomingFrame[] = [];
  private closeInfo: { code: number; reason: string } | undefined;
  private closeDelivered = false;
  private deliveryScheduled = false;
  private queuedBytes = 0;

  /** Two linked ends: what one sends, the other receives. */
  static createLinkedPair(): [InMemoryTransport, InMemoryTransport] {
    const left = new InMemoryTransport();
    const right = new InMemoryTransport();
    left.peer = right;
    right.peer = left;
    return [left, right];
  }

  start(handlers: TransportHandlers): void {
    if (this.handlers) throw new Error("transport already started");
    this.handlers = handlers;
    this.scheduleDelivery();
  }

  get isOpen(): boolean {
    return this.closeInfo === undefined;
  }

  get bufferedBytes(): number {
    return this.peer?.queuedBytes ?? 0;
  }

  send(text: string): void {
    if (!this.isOpen || !this.peer) return;
    this.peer.receive({ kind: "text", text });
  }

  /** A binary frame (the protocol refuses them; tests check that it says so). */
  sendBinary(bytes: Uint8Array): void {
    if (!this.isOpen || !this.peer) return;
    this.peer.receive({ kind: "binary", bytes: bytes.byteLength });
  }

  close(code = NORMAL_CLOSE, reason = ""): void {
    if (!this.isOpen) return;
    this.markClosed(code, reason);
    this.peer?.markClosed(code, reason);
  }

  private receive(frame: IncomingFrame): void {
    this.inbox.push(frame);
    if (frame.kind === "text") this.queuedBytes += Buffer.byteLength(frame.text);
    this.scheduleDelivery();
  }

  private markClosed(code: number, reason: string): void {
    if (this.closeInfo) return;
    this.closeInfo = { code, reason };
    this.scheduleDelivery();
  }

  private scheduleDelivery(): void {
    if (this.deliveryScheduled || !this.handlers) return;
    this.deliveryScheduled = true;
    queueMicrotask(() => this.deliver());
  }

  /** Frames received before a close are still delivered (a socket's last frames arrive before its close). */
  private deliver(): void {
    this.deliveryScheduled = false;
    const handlers = this.handlers;
    if (!handlers) return;
    while (this.inbox.length > 0) {
      const frame = this.inbox.shift()!;
      if (frame.kind === "text") this.queuedBytes -= Buffer.byteLength(frame.text);
      handlers.message(frame);
    }
    if (this.closeInfo && !this.closeDelivered) {
      this.closeDelivered = true;
      handlers.close(this.closeInfo.code, this.closeInfo.reason);
    }
  }
}
