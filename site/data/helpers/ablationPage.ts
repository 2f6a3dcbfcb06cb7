/**
 * What site/data/ablation.json.ts prints (the loader only prints it; see docs/design.md#site).
 *
 * Data loader for site/ablation.md (paper §5.4, Fig. 4): the committed ablation sweep
 *   npx consolesr sweep sweeps/ablation.json --out data/sweeps/ablation
 * read cell by cell (sweepGrid.ts): syn1 and syn2 × {paper, consolesr} × six cases × seeds 0–4.
 * A cell not run yet is listed as missing. No search runs here.
 */
import { summarise, sweepGrid } from "./sweepGrid.js";

export async function ablationPage(): Promise<string> {
  const grid = sweepGrid("ablation");
  const groups = [];
  for (const experiment of grid.spec.experiments ?? [])
    for (const method of grid.spec.methods ?? ["consolesr"])
      for (const variant of grid.variants) {
        const cells = grid.cells.filter(
          (c) => c.experiment === experiment && c.method === method && c.variant === variant.name,
        );
        groups.push({ experiment, method, variant: variant.name, settings: variant.settings, ...summarise(cells) });
      }
  return JSON.stringify({ ...grid, groups });
}
