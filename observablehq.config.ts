// Observable Framework configuration for the consolesr site.
// Offline by construction: no CDN, no font server, no registry (see ../shared/STACK.md,
// "Observable Framework offline"). test/browser/site-build.test.ts builds with network access blocked.
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { prepareBrowserVendor } from "./scripts/browserVendor.js";
import { invalidateStaleLoaders, watchLoaderInputs } from "./scripts/loaderCache.js";

const root = "site";

// Framework's client bundle (client.js, stdlib.js) names the libraries behind its implicit globals
// (d3, Plot, html, React, …) as `npm:<name>` and resolves each to a version by asking
// registry.npmjs.org, unless a folder `<cache>/_npm/<name>@<version>` already exists. Those URLs are
// only written into client.js (nothing is downloaded: pages import bare specifiers, which Framework
// self-hosts from node_modules), but the lookup alone makes a cold build fail offline. Seed the
// version cache before the build starts: the installed version where there is one, else the version
// a networked build of Framework 1.13.4 resolved (any version would do; nothing is fetched).
const clientNpmVersions: Record<string, string> = {
  "@observablehq/plot": "0.6.17",
  "@observablehq/sample-datasets": "1.0.1",
  "apache-arrow": "21.2.0",
  arquero: "8.0.3",
  d3: "7.9.2",
  "d3-dsv": "3.0.2",
  echarts: "6.1.0",
  htl: "0.3.1",
  leaflet: "1.9.4",
  lodash: "4.18.1",
  "mapbox-gl": "3.32.0",
  "parquet-wasm": "0.8.0",
  react: "19.3.1",
  "react-dom": "19.3.1",
  "topojson-client": "3.1.0",
};

function installedVersion(name: string): string | undefined {
  try {
    return JSON.parse(readFileSync(join("node_modules", name, "package.json"), "utf8")).version;
  } catch {
    return undefined;
  }
}

function seedNpmVersionCache(): void {
  const npmCache = join(root, ".observablehq", "cache", "_npm");
  for (const [name, fallback] of Object.entries(clientNpmVersions)) {
    const scope = join(npmCache, ...name.split("/").slice(0, -1));
    const base = name.split("/").pop()!;
    if (existsSync(scope) && readdirSync(scope).some((entry) => entry.startsWith(`${base}@`))) continue;
    mkdirSync(join(npmCache, `${name}@${installedVersion(name) ?? fallback}`), { recursive: true });
  }
}

seedNpmVersionCache();

// Browser builds of tfjs, tfjs-backend-wasm and highs with their .wasm files, written into the
// cache where Framework would put its own (which break in a browser or warn); see
// scripts/browserVendor.ts. `npm run build`/`npm run dev` run it first too (prebuild/predev); here
// it covers a bare `observable build`, e.g. after the cache was deleted.
await prepareBrowserVendor();

// Data loaders whose imports changed (the library, src/reports/) would otherwise keep their cached
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
      ],
    },
    {
      name: "Reports",
      pages: [
        { name: "The toy (§5.2)", path: "/toy" },
        { name: "syn1 (§5.1)", path: "/syn1" },
        { name: "syn2 (§5.1)", path: "/syn2" },
        { name: "Pow (§5.1)", path: "/pow" },
        { name: "Mas (§5.1)", path: "/mas" },
        { name: "Search benchmark", path: "/search-benchmark" },
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
        { name: "Guarantees", path: "/reference/guarantees" },
        { name: "Deviations", path: "/reference/deviations" },
      ],
    },
  ],
  // The default footer links observablehq.com; keep the site free of external hosts.
  footer: "consolesr — CoNSoLe symbolic regression in TypeScript.",
  search: false,
};
