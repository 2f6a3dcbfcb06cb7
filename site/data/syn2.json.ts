// Data loader for site/syn2.md (paper §5.1, syn2). syn2's search takes minutes, too long for a
// build, so this loader reads a committed result of
//   npx consolesr run syn2 --seed 0 --timings --out data/results/syn2-seed0.json
// validates it (src/lib/result/reproduce.ts parseResult), regenerates the run's data from its manifest
// (src/lib/run/manifest.ts configFromManifest, run/pipeline.ts pipelineData: the same train and U(3,4) test draw) and
// recomputes the evaluation against the truth with the library (src/lib/run/evaluate.ts, the function
// runPipeline calls). It also scores the equations the paper prints for CoNSoLe on syn2 with the
// same metric. Prints one JSON on stdout in experimentPage.ts's shape (syn1.json's, without the
// per-episode rewards, which a result JSON does not hold).
// Reproduce: `npx tsx site/data/syn2.json.ts > syn2.json` (seconds: no search runs here).
import { syn2Page } from "./helpers/syn2Page.js";

process.stdout.write(await syn2Page());
