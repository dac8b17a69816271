// A `ws` WebSocket behind the Transport seam: the server's end of an upgraded /ws connection, and the
// protocol client's end of the same socket.
import { once } from "node:events";
import type { Socket } from "node:net";
import { WebSocket } from "ws";
import { NORMAL_CLOSE, type Transport, type TransportHandlers } from "./transport.ts";

export class WebSocketTransport implements Transport {
  private corked = false;

  /**
   * `tcp`: the server's end of the upgraded connection. Frames sent in one turn of the event loop then
   * leave in one write: a model streaming faster than the loop turns (or a replay of a long session)
   * costs one system call per turn, not one per frame. Each message is still its own frame.
   */
  constructor(
    readonly socket: WebSocket,
    private readonly tcp?: Socket,
  ) {}

  start(handlers: TransportHandlers): void {
    this.socket.on("message", (data, isBinary) => {
      const bytes = Array.isArray(data)
        ? Buffer.concat(data)
        : Buffer.isBuffer(data)
          ? data
          : Buffer.from(data);
      if (isBinary) handlers.message({ kind: "binary", bytes: bytes.byteLength });
      else handlers.message({ kind: "text", text: bytes.toString("utf8") });
    });
    this.socket.on("close", (code, reason) => handlers.close(code, reason.toString("utf8")));
    this.socket.on("error", (error) => handlers.error?.(error));
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  get bufferedBytes(): number {
    return this.socket.bufferedAmount;
  }

  send(text: string): void {
    if (!this.isOpen) return;
    if (this.tcp && !this.corked) {
      this.corked = true;
      this.tcp.cork();
      setImmediate(() => {
        this.corked = false;
        this.tcp?.uncork();
      });
    }
    this.socket.send(text);
  }

  /** A frame as given, text or binary (tests of invalid and oversize frames). */
  sendRaw(data: string | Buffer): void {
    this.socket.send(data);
  }

  close(code = NORMAL_CLOSE, reason = ""): void {
    this.socket.close(code, reason);
  }

  /** Resolves once the client's socket is open (a server-side socket already is). */
  async opened(): Promise<void> {
    if (this.socket.readyState === WebSocket.CONNECTING) await once(this.socket, "open");
  }

  /** Resolves once the socket has closed. */
  async closed(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    await once(this.socket, "close");
  }
}
