// A menu or popover that closes like one: on a click outside it and on Escape. Escape is handled (and its
// default prevented) here, so the window's Escape-stops-the-run shortcut does not also fire; an Escape a
// dialog opened from the popover already handled (defaultPrevented) closes only that dialog.
"use client";
import { useEffect, useRef, useState } from "react";

export function usePopover(onClose?: () => void) {
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    if (!open) return;
    const close = () => {
      setOpen(false);
      closeRef.current?.();
    };
    const onPointer = (event: MouseEvent) => {
      if (!container.current?.contains(event.target as Node)) close();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      event.preventDefault();
      close();
    };
    document.addEventListener("mousedown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  return { open, setOpen, container };
}
