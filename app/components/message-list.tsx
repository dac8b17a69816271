// The Messages pane's list: every message of one request, oldest first, the ones new in this request
// marked. A long conversation (a 500-request session's last request holds about a thousand) renders only
// the messages in view of the inspector's scroll box, and OVERSCAN either side (@tanstack/react-virtual);
// up to VIRTUAL_AFTER messages the list is whole, as before. The pane's Copy button copies every message
// (it copies the pane's text, not the rendered rows), and the browser's find-in-page sees the rows rendered.
"use client";
import { useLayoutEffect, useRef, useState, type CSSProperties, type Ref } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { ChatMessage } from "../../server/protocol/index.ts";
import { Badge } from "./ui.tsx";

export const VIRTUAL_AFTER = 150;
const OVERSCAN = 12;
const ESTIMATED_ROW_PX = 56;
const GAP_PX = 4;

function MessageView({
  message,
  added,
  ref,
  index,
  style,
}: {
  message: ChatMessage;
  added: boolean;
  ref?: Ref<HTMLLIElement>;
  index?: number;
  style?: CSSProperties;
}) {
  const tone = message.role === "user" ? "blue" : message.role === "assistant" ? "slate" : "violet";
  return (
    <li
      ref={ref}
      data-index={index}
      style={style}
      className={`rounded border p-1 ${added ? "border-emerald-400 bg-emerald-50" : "border-slate-200"}`}
      data-testid="pane-message"
      data-added={added}
    >
      <div className="flex items-center gap-1">
        <Badge tone={tone}>
          {message.role === "tool" ? `tool result · ${message.toolName}` : message.role}
        </Badge>
        {added && <Badge tone="green">new in this request</Badge>}
        {message.role === "tool" && message.isError && <Badge tone="red">error</Badge>}
      </div>
      {message.content && (
        <pre className="mt-0.5 font-mono text-xs whitespace-pre-wrap break-words">{message.content}</pre>
      )}
      {message.role === "assistant" &&
        message.toolCalls.map((call) => (
          <pre
            key={call.id}
            className="mt-0.5 font-mono text-xs whitespace-pre-wrap break-words text-violet-900"
          >
            → {call.name}({JSON.stringify(call.input)})
          </pre>
        ))}
    </li>
  );
}

/** The nearest ancestor that scrolls vertically (the inspector's panel). */
function scrollParent(element: HTMLElement | null): HTMLElement | null {
  for (let node = element?.parentElement; node; node = node.parentElement) {
    const overflow = getComputedStyle(node).overflowY;
    if (overflow === "auto" || overflow === "scroll") return node;
  }
  return null;
}

function VirtualMessages({ messages, added }: { messages: ChatMessage[]; added: number }) {
  const list = useRef<HTMLOListElement>(null);
  const [scroller, setScroller] = useState<HTMLElement | null>(null);
  const [margin, setMargin] = useState(0);
  // Where the list starts inside the scroll box: the panes' header and the summary are above it.
  useLayoutEffect(() => {
    const parent = scrollParent(list.current);
    setScroller(parent);
    if (parent && list.current)
      setMargin(
        list.current.getBoundingClientRect().top - parent.getBoundingClientRect().top + parent.scrollTop,
      );
  }, [messages.length]);
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scroller,
    estimateSize: () => ESTIMATED_ROW_PX,
    overscan: OVERSCAN,
    gap: GAP_PX,
    scrollMargin: margin,
    // The virtualizer scrolls to its offset as it starts: the inspector's, so the panel does not jump.
    initialOffset: () => scroller?.scrollTop ?? 0,
  });
  const firstAdded = messages.length - added;
  return (
    <ol
      ref={list}
      className="relative"
      style={{ height: virtualizer.getTotalSize() }}
      data-testid="pane-messages-list"
      data-virtual-rows={messages.length}
    >
      {virtualizer.getVirtualItems().map((item) => (
        <MessageView
          key={item.key}
          ref={virtualizer.measureElement}
          index={item.index}
          style={{
            position: "absolute",
            top: 0,
            left: 0,
            width: "100%",
            transform: `translateY(${item.start - margin}px)`,
          }}
          message={messages[item.index]}
          added={item.index >= firstAdded}
        />
      ))}
    </ol>
  );
}

export function MessageList({
  messages,
  added,
  rewritten,
}: {
  messages: ChatMessage[];
  /** How many messages at the end are new in this request. */
  added: number;
  /** The history is not a continuation of the previous request's. */
  rewritten: boolean;
}) {
  const note = rewritten && (
    <p className="text-xs text-amber-900">
      The history is not a continuation of the previous request (new run or rewritten).
    </p>
  );
  if (messages.length > VIRTUAL_AFTER)
    return (
      <>
        {note}
        <VirtualMessages messages={messages} added={added} />
      </>
    );
  return (
    <ol className="space-y-1" data-testid="pane-messages-list">
      {note && <li>{note}</li>}
      {messages.map((message, index) => (
        <MessageView key={index} message={message} added={index >= messages.length - added} />
      ))}
    </ol>
  );
}
