// Data loader for site/pow.md (paper §5.1, Pow: the power-flow equations of a 5-bus grid).
// Pow's search with the paper's pool {x} takes minutes, too long for a build, so this loader reads
// two committed results,
//   npx consolesr run pow --seed 0 --timings --out data/results/pow-x-seed0.json
//   npx consolesr run pow --seed 0 --symbols x,x^2 --timings --out data/results/pow-x2-seed0.json
// validates them, regenerates each run's data from its manifest (the same seeded power flows),
// recomputes the evaluation against the reduced truth and reads the grid back from the learned
// equations (learnedTopology). It uses the library's public entry only, as a user's report would.
// Reproduce: `npx tsx site/data/pow.json.ts > pow.json` (seconds: no search runs here).
import { powPage } from "./helpers/powPage.js";

process.stdout.write(await powPage());
