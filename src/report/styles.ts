// The rules the report components need, carried by the components themselves: a page of a report
// project (`consolesr report`) has Framework's theme and nothing of this site's stylesheet, where
// these rules lived (the Re-run form's labels ran into their inputs, a SHA-256 widened the page).

/** The components' stylesheet (class selectors of their own; a page's stylesheet, read later, can override them). */
export const REPORT_CSS = `
.scroll-x { overflow-x: auto; max-width: 100%; }
.scroll-x > table { margin: 0.5rem 0; }
.csr-reproduce td code, .rerun td code { white-space: normal; overflow-wrap: anywhere; }
.csr-reproduce p code { overflow-wrap: anywhere; }
.rerun td .katex { white-space: normal; }
.rerun {
  max-width: 960px;
  margin: 1rem 0 2rem;
  padding: 0.75rem 1rem;
  border: solid 1px var(--theme-foreground-faintest, #ddd);
  border-radius: 6px;
}
.rerun form { display: flex; flex-wrap: wrap; gap: 0.5rem 1.25rem; align-items: flex-end; }
.rerun label { display: flex; flex-direction: column; font: 13px var(--sans-serif, sans-serif); gap: 0.15rem; }
.rerun input[type="number"] { width: 7.5rem; }
.rerun select { max-width: 14rem; }
.rerun .rerun-actions {
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem 1rem;
  align-items: center;
  margin: 0.75rem 0 0.25rem;
  font: 13px var(--sans-serif, sans-serif);
}
.rerun .rerun-status { font: 13px var(--sans-serif, sans-serif); color: var(--theme-foreground-muted, #666); min-height: 1.3em; }
.rerun .rerun-status[data-status="error"] { color: crimson; }
.rerun .rerun-note { font: 13px var(--sans-serif, sans-serif); color: var(--theme-foreground-muted, #666); max-width: 760px; }
.rerun .rerun-command { overflow-wrap: anywhere; }
.rerun .rerun-table td.pair { white-space: nowrap; }
.rerun .rerun-table td.rerun-equation { min-width: 11rem; }
.rerun .rerun-charts { display: flex; flex-wrap: wrap; gap: 1rem 2rem; }
`;

/**
 * Puts REPORT_CSS in the page once (a <style data-consolesr-report> first in <head>, so that the
 * page's own stylesheets come after it); nothing outside a browser. Returns `element`.
 */
export function withReportStyles<T>(element: T): T {
  if (typeof document === "undefined" || document.head.querySelector("style[data-consolesr-report]")) return element;
  const style = document.createElement("style");
  style.setAttribute("data-consolesr-report", "");
  style.textContent = REPORT_CSS;
  document.head.prepend(style);
  return element;
}
