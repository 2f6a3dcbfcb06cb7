// Data loader for site/mas.md (paper §5.1 (3), Mas: a 10-node mass-damper network).
// Reads the committed result
//   npx consolesr run mas --seed 0 --timings --out data/results/mas-seed0.json
// validates it, regenerates its data from the manifest (the same seeded trajectories), recomputes
// the evaluation against the truth and reads the matrix −D R Dᵀ M⁻¹ back from the learned
// equations (learnedMatrix). It uses the library's public entry only, as a user's report would.
// Reproduce: `npx tsx site/data/mas.json.ts > mas.json` (about a second: no search runs here).
import { masPage } from "./helpers/masPage.js";

process.stdout.write(await masPage());
