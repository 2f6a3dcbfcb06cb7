/**
 * One line of a run's progress, as the playground and every report form write it: output k of n,
 * the episode (a baseline's epoch or expressions sampled) of its limit, the best NRMSE so far and
 * the seconds elapsed, or, before the episodes, the step the search is taking (its phase), from
 * the runtime module's `progress` cell as the search worker posts it.
 */
import type { Progress } from "../lib/index.js";
import { nrmseText } from "./format.js";

/** What a progress count counts, in words. */
export const unitName = (unit: Progress["unit"] | undefined, count = 2): string =>
  `${unit ?? "episode"}${count === 1 ? "" : "s"}`;

export function progressLine(
  progress:
    | (Pick<Progress, "target" | "targetIndex" | "targets" | "episode" | "episodes" | "unit" | "bestNrmse"> &
        Partial<Pick<Progress, "phase">>)
    | null,
  seconds: number,
): string {
  if (!progress || progress.target === null) return `starting… ${seconds.toFixed(1)} s`;
  // Before a target's episodes: the step it is taking (a screen of a wide CSV takes long).
  if (progress.phase)
    return `output ${progress.targetIndex + 1} of ${progress.targets} (${progress.target}): ${progress.phase}, ${seconds.toFixed(1)} s`;
  const of = progress.episodes ? ` of ${progress.episodes}` : "";
  const best = Number.isFinite(progress.bestNrmse) ? `, best NRMSE ${nrmseText(progress.bestNrmse)}` : "";
  return (
    `output ${progress.targetIndex + 1} of ${progress.targets} (${progress.target}), ` +
    `${unitName(progress.unit, 1)} ${progress.episode}${of}${best}, ${seconds.toFixed(1)} s`
  );
}
