// "Is this committed result still what the code makes?", from data/freshness.json (the loader
// reads data/results/freshness.json, written by `npm run freshness`, and the digest of the code
// the site is built from).
import { html } from "htl";

const short = (sha) => (/^[0-9a-f]{40}$/.test(sha) ? sha.slice(0, 10) : sha);
const day = (iso) => String(iso).slice(0, 10);

/** The state of `file` in the freshness record: reproduced, differs, stale (other code) or unchecked. */
export function freshnessOf(freshness, file) {
  const entry = freshness.entries.find((e) => e.file === file);
  if (!entry) return { state: "unchecked", entry: null };
  if (entry.code !== freshness.code) return { state: "stale", entry };
  return { state: entry.reproduced ? "reproduced" : "differs", entry };
}

/** One line under a committed result: whether the current code reproduces it, and how that was checked. */
export function freshnessNote(freshness, file) {
  const { state, entry } = freshnessOf(freshness, file);
  const how = html`<code>npm run freshness</code>`;
  const sample = entry?.sample ? ` (a sample of ${entry.sample.runs} of its ${entry.sample.of} runs re-run)` : "";
  const text =
    state === "reproduced"
      ? html`<b>Reproduced at ${short(entry.sha)}</b>${entry.dirty ? " (with uncommitted changes)" : ""} on
        ${day(entry.date)}${sample}: ${entry.detail}; the library code (src/lib) is the same in
        this build.`
      : state === "differs"
        ? html`<b>Not reproduced at ${short(entry.sha)}</b> on ${day(entry.date)}${sample}, with the code of this
        build: ${entry.detail}.`
        : state === "stale"
          ? html`<b>Not yet checked at this commit</b> (${short(freshness.git)}): the library code changed since it was
        last checked at ${short(entry.sha)} on ${day(entry.date)} (${entry.reproduced ? "reproduced" : "not reproduced"}
        then).`
          : html`<b>Not yet checked at this commit</b> (${short(freshness.git)}): no record of a check.`;
  const differences = state === "differs" && entry.differences?.length ? entry.differences : null;
  return html`<div class="freshness" data-file=${file} data-state=${state}><p>${file}: ${text} Checked by ${how}
    (<code>scripts/freshness.ts</code>), which writes <code>data/results/freshness.json</code>.</p>${
      differences
        ? html`<details><summary>What the re-run made differently</summary>
          <pre>${differences.join("\n")}</pre></details>`
        : ""
    }</div>`;
}

/** The line for a result made during the site build itself (toy, syn1): current by construction. */
export function builtNote(git) {
  return html`<p class="freshness" data-state="built">Made by this page's data loader during the site build, at
    ${short(git)}: it is the current code's result by construction.</p>`;
}
