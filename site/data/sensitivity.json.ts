// Data loader for site/sensitivity.md (paper §5.5, Fig. 5): the committed sensitivity sweeps
//   npx consolesr sweep sweeps/sensitivity-snr.json --out data/sweeps/sensitivity-snr
//   npx consolesr sweep sweeps/sensitivity-rows.json --out data/sweeps/sensitivity-rows
// read cell by cell (sweepGrid.ts): syn1 and syn2 × seeds 0–4 × SNR ∈ {80…120} dB, and × N ∈
// {500…2500} at 100 dB. A cell not run yet is listed as missing. No search runs here.
import { sensitivityPage } from "./helpers/sensitivityPage.js";

process.stdout.write(await sensitivityPage());
