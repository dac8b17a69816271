// Tabs as the ARIA authoring practices describe them: a `tablist` of `tab` buttons, one `tabpanel` they
// control. Only the selected tab is in the Tab order (roving tabindex); Left and Right arrows move to the
// previous and next tab (wrapping), Home and End to the first and last, and moving selects (the panes are
// cheap to show). Tab from the list goes to the panel, which takes the focus itself so a keyboard user
// can scroll it. Every tab strip of the pages uses this one.
"use client";
import { useId, useRef, type KeyboardEvent, type ReactNode } from "react";

export interface TabItem<T extends string> {
  id: T;
  label: ReactNode;
  testId?: string;
  title?: string;
}

/** Ids that tie a tab list to its panel; `useTabIds()` once per strip. */
export function useTabIds(): string {
  return useId();
}

export function TabList<T extends string>({
  ids,
  label,
  tabs,
  selected,
  onSelect,
  className,
  tabClassName,
  testId,
}: {
  ids: string;
  /** The strip's accessible name. */
  label: string;
  tabs: readonly TabItem<T>[];
  selected: T;
  onSelect: (id: T) => void;
  className?: string;
  tabClassName: (selected: boolean) => string;
  testId?: string;
}) {
  const buttons = useRef(new Map<T, HTMLButtonElement>());
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((tab) => tab.id === selected);
    const last = tabs.length - 1;
    const next =
      event.key === "ArrowRight"
        ? index >= last
          ? 0
          : index + 1
        : event.key === "ArrowLeft"
          ? index <= 0
            ? last
            : index - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : undefined;
    if (next === undefined || tabs.length === 0) return;
    event.preventDefault();
    const tab = tabs[next];
    onSelect(tab.id);
    buttons.current.get(tab.id)?.focus();
  };
  return (
    <div role="tablist" aria-label={label} className={className} data-testid={testId} onKeyDown={onKeyDown}>
      {tabs.map((tab) => {
        const isSelected = tab.id === selected;
        return (
          <button
            key={tab.id}
            ref={(element) => {
              if (element) buttons.current.set(tab.id, element);
              else buttons.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={tabId(ids, tab.id)}
            aria-selected={isSelected}
            aria-controls={panelId(ids)}
            tabIndex={isSelected ? 0 : -1}
            data-testid={tab.testId}
            title={tab.title}
            onClick={() => onSelect(tab.id)}
            className={tabClassName(isSelected)}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}

/** The panel the strip controls, labelled by its selected tab. */
export function TabPanel({
  ids,
  selected,
  className,
  testId,
  children,
}: {
  ids: string;
  selected: string;
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <div
      role="tabpanel"
      id={panelId(ids)}
      aria-labelledby={tabId(ids, selected)}
      tabIndex={0}
      className={`focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 focus-visible:ring-inset ${className ?? ""}`}
      data-testid={testId}
    >
      {children}
    </div>
  );
}

function tabId(ids: string, tab: string): string {
  return `${ids}-tab-${tab}`;
}

function panelId(ids: string): string {
  return `${ids}-panel`;
}
