// Where the tokens of a request go (like Claude Code's /context, finer): every contributor sorted, the
// top ones named, each figure saying whether it is the server's count or an estimate.
"use client";
import type { ContextItem } from "../lib/context-breakdown.ts";

export function ContextView({ items }: { items: ContextItem[] }) {
  if (items.length === 0) return null;
  const total = items.reduce((sum, item) => sum + item.tokens, 0);
  const top = items.slice(0, 3);
  return (
    <details className="text-[0.7rem]" data-testid="context-view">
      <summary className="cursor-pointer" data-testid="context-view-toggle">
        Context: top {top.map((item) => `${item.label} ${item.tokens}`).join(", ")} (of {total} tokens)
      </summary>
      <table className="mt-0.5 w-full">
        <tbody>
          {items.map((item, index) => (
            <tr key={`${item.group}-${item.label}-${index}`} data-testid="context-item">
              <td className="pr-1 text-slate-500">{item.group}</td>
              <td className="font-mono break-all">{item.label}</td>
              <td className="text-right tabular-nums">{item.tokens}</td>
              <td className="pl-1 text-right text-slate-500">
                {total > 0 ? `${((100 * item.tokens) / total).toFixed(1)}%` : ""}
              </td>
              <td
                className="pl-1 text-slate-500"
                title={
                  item.basis === "estimate"
                    ? "share of the stable system's count by characters"
                    : "the server's o200k_base count"
                }
              >
                {item.basis === "estimate" ? "≈" : ""}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
