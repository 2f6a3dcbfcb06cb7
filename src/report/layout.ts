/// <reference path="./htl.d.ts" />
// Layout helpers the report pages share (their rules come with them: styles.ts).
import type { LegendOptions, ScaleOptions } from "@observablehq/plot";
import { html } from "htl";
import { withReportStyles } from "./styles.js";

/**
 * Wraps wide content (a table, a chart, a row of charts) in a box that scrolls sideways by itself,
 * so that on a narrow screen the page does not.
 */
export function scrollX(content: unknown): HTMLElement {
  return withReportStyles(html`<div class="scroll-x">${content}</div>`);
}

/**
 * A color scale with its legend's own options (width, margins, ticks) beside it: Plot hands a
 * scale's options to its legend, though its types list them only on the legend.
 */
export const withLegend = (scale: ScaleOptions & Omit<LegendOptions, "legend">): ScaleOptions => scale;

/**
 * A chart width for a container `available` pixels wide: at most `max`, at least `min` (below it
 * the chart's margins leave no room for its marks, and it scrolls in its box instead).
 */
export function chartWidth(available: number, { min = 320, max = 760 } = {}): number {
  return Math.max(min, Math.min(max, Math.floor(available || max)));
}
