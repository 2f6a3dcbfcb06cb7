// Data loader for site/toy.md (paper §5.2, Fig. 2): the toy y = 3·x1²·cos(2.5·x2) on
// 2000 rows, x ~ U(1,2). Prints one JSON on stdout (nothing on stderr):
//   surface — the LoCaL loss L(w1, w2) = mean((y − w1·x1²·cos(w2·x2))²)/var(y) on a grid;
//   init    — final loss vs the initial weight w0 (Adam only, float64 js engine);
//   q       — −Q over a 2-D slice of the relaxed layer-1 action at episodes 1, 5, 10 of a search;
//   run     — `consolesr run toy --seed 0` through the pipeline: its version-1 JSON (the page's
//             published search, beside which its re-run form shows a live one).
// Reproduce: `npx tsx site/data/toy.json.ts > toy.json` (or `npx observable build`, which runs it).
import { toyPage } from "./helpers/toyPage.js";

process.stdout.write(await toyPage());
