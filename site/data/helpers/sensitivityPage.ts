/**
 * What site/data/sensitivity.json.ts prints (the loader only prints it; see docs/design.md#site).
 *
 * Data loader for site/sensitivity.md (paper §5.5, Fig. 5): the committed sensitivity sweeps
 *   npx consolesr sweep sweeps/sensitivity-snr.json --out data/sweeps/sensitivity-snr
 *   npx consolesr sweep sweeps/sensitivity-rows.json --out data/sweeps/sensitivity-rows
 * read cell by cell (sweepGrid.ts): syn1 and syn2 × seeds 0–4 × SNR ∈ {80…120} dB, and × N ∈
 * {500…2500} at 100 dB. A cell not run yet is listed as missing. No search runs here.
 */
import { summarise, sweepGrid } from "./sweepGrid.js";

export async function sensitivityPage(): Promise<string> {
  const axes = [
    { name: "sensitivity-snr", axis: "snr" as const },
    { name: "sensitivity-rows", axis: "rows" as const },
  ];
  const sweeps = axes.map(({ name, axis }) => {
    const grid = sweepGrid(name);
    const values = [...new Set(grid.cells.map((c) => c[axis]))];
    const groups = (grid.spec.experiments ?? []).flatMap((experiment) =>
      values.map((value) => ({
        experiment,
        value,
        ...summarise(grid.cells.filter((c) => c.experiment === experiment && c[axis] === value)),
      })),
    );
    return { ...grid, axis, groups };
  });
  return JSON.stringify({ sweeps });
}
