// Data loader for site/ablation.md (paper §5.4, Fig. 4): the committed ablation sweep
//   npx consolesr sweep sweeps/ablation.json --out data/sweeps/ablation
// read cell by cell (sweepGrid.ts): syn1 and syn2 × {paper, consolesr} × six cases × seeds 0–4.
// A cell not run yet is listed as missing. No search runs here.
import { ablationPage } from "./helpers/ablationPage.js";

process.stdout.write(await ablationPage());
