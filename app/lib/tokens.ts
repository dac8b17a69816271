// Token counts with a real tokenizer (o200k_base via gpt-tokenizer). The encoding tables are large, so
// the module is loaded on first use (a separate chunk), never as part of the page's first-load JS.
"use client";
import { useEffect, useState } from "react";

export const tokenizerName = "o200k_base via gpt-tokenizer";

type CountTokens = (text: string) => number;
let loading: Promise<CountTokens> | undefined;

export function loadTokenizer(): Promise<CountTokens> {
  loading ??= import("gpt-tokenizer/encoding/o200k_base").then((module) => module.countTokens);
  return loading;
}

/** Counts tokens for each text; undefined while the tokenizer loads. Keys name the texts. */
export function useTokenCounts(texts: Record<string, string>): Record<string, number> | undefined {
  const [counts, setCounts] = useState<Record<string, number> | undefined>(undefined);
  const signature = JSON.stringify(
    Object.keys(texts).map((key) => [key, texts[key].length, texts[key].slice(0, 64), texts[key].slice(-64)]),
  );
  useEffect(() => {
    let current = true;
    loadTokenizer().then(
      (countTokens) => {
        if (!current) return;
        const result: Record<string, number> = {};
        for (const [key, text] of Object.entries(texts)) result[key] = countTokens(text);
        setCounts(result);
      },
      (error: unknown) => {
        console.error("tokenizer failed to load", error);
      },
    );
    return () => {
      current = false;
    };
    // The signature stands for the texts' contents; recomputing on every new object would waste work.
  }, [signature]);
  return counts;
}
