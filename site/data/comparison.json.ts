// Data loader for site/comparison.md (paper §5.3, Table 1 and Fig. 3): the committed sweep
//   npx consolesr sweep sweeps/comparison.json --out data/sweeps/comparison
// read cell by cell (sweepGrid.ts): syn1 and syn2 × {consolesr, paper, dsr, vpg, eql, mlp} ×
// seeds 0–4, beside the paper's Table 1 (its learned equations, typed in from the paper as
// facts). A cell not run yet is listed as missing. No search runs here.
import { comparisonPage } from "./helpers/comparisonPage.js";

process.stdout.write(await comparisonPage());
