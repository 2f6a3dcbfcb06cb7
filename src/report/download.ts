/// <reference path="./htl.d.ts" />
// Saving a result from a page: the version-1 JSON as a file download, made in the page (no server).
import { html } from "htl";

/** Saves `text` as a file named `filename` (a Blob URL, revoked once the download has started). */
export function saveJson(text: string, filename: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = html`<a href=${url} download=${filename} style="display: none"></a>` as HTMLAnchorElement;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
