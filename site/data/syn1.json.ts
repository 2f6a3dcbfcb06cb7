// Data loader for site/syn1.md (paper §5.1, Table 1): the search on syn1 through the pipeline
// `npx consolesr run syn1 --seed 0 --out syn1.json` runs (src/lib/run/pipeline.ts: same config, data
// draw, rng streams and result), plus what the page plots: the reward per episode and the Pareto front per output.
// Prints one JSON on stdout (nothing on stderr); the shape is experimentPage.ts's, shared with syn2.json.ts.
// Reproduce: `npx tsx site/data/syn1.json.ts > syn1.json` (or `npx observable build`, which runs it).
import { syn1Page } from "./helpers/syn1Page.js";

process.stdout.write(await syn1Page());
