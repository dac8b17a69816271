// Drops bytes as a file on the Add skill dialog's drop zone, as a drag from the desktop would.
import type { Page } from "@playwright/test";

export async function dropFile(page: Page, name: string, bytes: Buffer) {
  await page.getByTestId("add-skill-drop").evaluate(
    (zone, { name, base64 }) => {
      const binary = atob(base64);
      const data = new Uint8Array(binary.length);
      for (let index = 0; index < binary.length; index++) data[index] = binary.charCodeAt(index);
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], name, { type: "application/zip" }));
      zone.dispatchEvent(
        new DragEvent("dragover", { dataTransfer: transfer, bubbles: true, cancelable: true }),
      );
      zone.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
    },
    { name, base64: bytes.toString("base64") },
  );
}
