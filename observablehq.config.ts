// Observable Framework configuration for the consolesr site.
// Offline by construction: no CDN, no font server, no registry (docs/design.md#stack).
// test/browser/site-build.test.ts builds with network access blocked.
import { NO_SCRIPT_NOTICE, prepareFrameworkCache } from "./src/framework/index.js";
import { invalidateStaleLoaders, watchLoaderInputs } from "./scripts/loaderCache.js";

const root = "site";

// What a cold, offline build needs in Framework's cache before it starts: the npm version lookups
// of Framework's client bundle, and browser builds of tfjs, tfjs-backend-wasm and highs with their
// .wasm files. The code is the package's own (`consolesr/framework`, src/framework/index.ts), which
// the report projects `consolesr report` writes run the same way. `npm run build`/`npm run dev` run
// the bundling first too (prebuild/predev); here it covers a bare `observable build`, e.g. after
// the cache was deleted. The site imports the library from its sources (site/lib), not the package.
await prepareFrameworkCache(root, { project: ".", consolesr: false });

// Data loaders whose imports changed (the library, site/data/helpers/) would otherwise keep their cached
// output until the cache is deleted: drop those outputs now, and in the preview re-run a loader
// when a module it imports is edited (scripts/loaderCache.ts).
invalidateStaleLoaders();
if (process.argv.includes("preview")) watchLoaderInputs((line) => console.log(line));

export default {
  root,
  output: "dist",
  title: "consolesr",
  // The default theme's global stylesheet links a web-font server: keep it empty.
  globalStylesheets: [],
  // Framework's default theme plus the rules the report pages share (wide tables and equations
  // scroll in their own box; the re-run form); see the file.
  style: "site.css",
  // A favicon from the site's own origin (without it the browser asks for /favicon.ico: a 404).
  head: '<link rel="icon" href="/favicon.svg" type="image/svg+xml" sizes="any">',
  // A reader with JavaScript off is told what is missing (the tables, charts and equations).
  header: NO_SCRIPT_NOTICE,
  // Pages live in site/; the home is site/index.md and is always first.
  pages: [
    {
      name: "Guides",
      pages: [
        { name: "Getting started", path: "/guide/getting-started" },
        { name: "The command line", path: "/guide/cli" },
        { name: "The library", path: "/guide/library" },
        { name: "Sweeps", path: "/guide/sweeps" },
        { name: "How the fit and the search work", path: "/guide/how-it-works" },
        { name: "Writing a plugin", path: "/guide/plugins" },
        { name: "Publish your own report", path: "/guide/report" },
      ],
    },
    {
      name: "Reports",
      pages: [
        { name: "The toy (§5.2)", path: "/toy" },
        { name: "syn1 (§5.1)", path: "/syn1" },
        { name: "syn2 (§5.1)", path: "/syn2" },
        { name: "Pow (§5.1)", path: "/pow" },
        { name: "A grid of your own", path: "/grid" },
        { name: "Mas (§5.1)", path: "/mas" },
        { name: "Search benchmark", path: "/search-benchmark" },
        { name: "Polynomial laws", path: "/polynomial" },
        { name: "Forms under noise", path: "/forms" },
        { name: "Composite laws", path: "/composite" },
        { name: "Comparison (Table 1, Fig. 3)", path: "/comparison" },
        { name: "Ablation (§5.4)", path: "/ablation" },
        { name: "Sensitivity (§5.5)", path: "/sensitivity" },
        { name: "Speed benchmarks", path: "/speed" },
      ],
    },
    { name: "Playground", path: "/playground" },
    {
      name: "Reference",
      pages: [
        { name: "Settings", path: "/reference/settings" },
        { name: "Search methods", path: "/reference/methods" },
        { name: "Result JSON", path: "/reference/result-json" },
        { name: "Report components", path: "/reference/components" },
        { name: "Guarantees", path: "/reference/guarantees" },
        { name: "Deviations", path: "/reference/deviations" },
      ],
    },
  ],
  // The default footer links observablehq.com; keep the site free of external hosts.
  footer: "consolesr — CoNSoLe symbolic regression in TypeScript.",
  search: false,
};
