// Data loader for site/grid.md: `run powerflow` on a grid of our own making (data/grids/ring5.json), pool {x, x²},
// seed 0, run at build time (a few seconds); see helpers/gridPage.ts.
// Reproduce: `npx tsx site/data/grid.json.ts > grid.json`.
import { gridPage } from "./helpers/gridPage.js";

process.stdout.write(await gridPage());
