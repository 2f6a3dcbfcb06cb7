/**
 * The library's folder boundaries, checked (part of `npm run lint`; docs/design.md, "Folders").
 * Inside `src/lib` every folder is a room with one door, its `index.ts`:
 * - a file imports a module of another folder only through that folder's door (no deep import);
 * - folders import each other only downward, in LAYERS' order (a folder may import the ones listed
 *   before it), so the folder graph has no cycle;
 * - nothing in the library imports a `node:` module (it runs in the browser too);
 * - the CLI (src/cli) reaches the library through the same doors or its entries;
 * - no file but numeric/linalg.ts defines a numeric kernel (dot, least squares, QR, Givens,
 *   Cholesky, a square solve): one definition of each.
 * - the built-in plugins (plugins/: symbols, outer functions, powers, constraints, rewards) compute
 *   with core/math.ts's bit-exact functions, never with a `Math` function ECMAScript leaves
 *   implementation-approximated (Math.sin, exp, log, pow, tanh, …) or `**`: a browser's V8 may round
 *   those differently from Node's, and one bit sends a search elsewhere (core/math.ts says more).
 * - the site (site/, the Framework root) reaches the library only through the link site/lib →
 *   ../src/lib and only its public entries (ENTRIES), and the report components (src/report,
 *   `consolesr/report`) only through the link site/report and their entry, index.ts, which itself
 *   uses the library's public entries only; no page or component imports a path outside
 *   site/ (Framework would print "non-local import" and still exit 0); data loaders and their
 *   helpers (site/data/helpers, run in Node) also use the public entries only, and no page or
 *   component imports a loader helper (docs/design.md#site).
 * Late loads (`await import(…)`, or a side-effect `import "…"` that binds nothing) may reach past a
 * door to the one module they load (LAZY), so that a door need not load tfjs or the baselines with
 * everything else.
 *
 * Run: `node --import tsx scripts/boundaries.ts [root]` (root defaults to the repository's
 * src/lib). Prints the folder graph, then each violation as `file: problem`; exits 1 on any.
 * `checkBoundaries` is exported for the tests (test/unit/boundaries.test.ts), which run it on trees
 * they make with a deliberate cycle or deep import.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { LOADER } from "./loaderCache.js";

/** Bottom first: a folder may import only the folders listed before it. */
export const LAYERS = [
  "core",
  "numeric",
  "engine",
  "plugins",
  "equation",
  "data",
  "metrics",
  "result",
  "conformance",
  "local",
  "search",
  "baselines",
  "sweep",
  "run",
  "api",
] as const;

/**
 * Second doors: engine/tf.ts is tfjs-core itself, for the library's own tensor code; it stays out of
 * engine/index.ts so that the public declarations (which reach that door) never reach tfjs-core's,
 * whose types do not check in a user's project under skipLibCheck: false.
 */
export const SECOND_DOORS = new Set(["engine/tf.ts"]);

/** Modules outside every room: generated bundles the engine loads (scripts/tfjsRegistrations.ts). */
const OUTSIDE = new Set(["vendor"]);

/** The modules a late load may reach past their door. */
export const LAZY = new Set(["local/fitTfjs.ts"]);

/** Where the numeric kernels live, and the names a private copy of one would go by elsewhere. */
const NUMERIC = "numeric/linalg.ts";
const KERNELS =
  "dot|leastSquares|householder\\w*|givens|rotate|cholesky\\w*|solveSpd|solveSquare|solveDense|gramSchmidt";
const KERNEL = new RegExp(`(?:function\\s+|const\\s+)(${KERNELS})\\b`, "g");

/** The built-in plugins: their numbers must be the same bits in every engine (core/math.ts). */
const BUILT_INS = "plugins/";
/** The Math functions ECMAScript leaves implementation-approximated, and `**` (Math.pow as an operator). */
const APPROXIMATED = new RegExp(
  "\\bMath\\.(?:sin|cos|tan|exp|expm1|log|log2|log10|log1p|pow|hypot|atan2?|asin|acos|" +
    "sinh|cosh|tanh|asinh|acosh|atanh|cbrt)\\b|\\*\\*",
  "g",
);

export interface BoundaryReport {
  /** Folder → the folders it imports, sorted. */
  graph: Map<string, string[]>;
  problems: string[];
}

const CODE = /\.(ts|js|mts)$/;
const STATIC = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?[\w*{}\s,$]+\s+from\s+["']([^"']+)["']/.source;
/** A static import, then a late one: `import(…)` or a side-effect `import "…"` (loads, binds nothing). */
const IMPORT = new RegExp(`${STATIC}|import\\(\\s*["']([^"']+)["']\\s*\\)|(?:^|[\\s;])import\\s+["']([^"']+)["']`, "g");

function files(root: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(root, { recursive: true, encoding: "utf8" })) {
    const path = join(root, entry);
    if (CODE.test(entry) && !entry.endsWith(".d.ts") && !entry.split(sep).some((p) => OUTSIDE.has(p))) out.push(path);
  }
  return out.sort();
}

/** The folder of a file under root: its first path segment, or "" for an entry at the top. */
const folderOf = (root: string, path: string): string => {
  const parts = relative(root, path).split(sep);
  return parts.length > 1 ? parts[0]! : "";
};

/** The source file a relative specifier names (`./x.js` is `./x.ts` in the sources). */
function target(from: string, spec: string): string {
  const path = resolve(dirname(from), spec);
  const ts = path.replace(/\.js$/, ".ts");
  return existsSync(ts) ? ts : path;
}

/** Strips comments so that an import written in a doc comment is not read as one. */
const code = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");

export function checkBoundaries(root: string, layers: readonly string[] = LAYERS): BoundaryReport {
  const graph = new Map<string, Set<string>>();
  const problems: string[] = [];
  const rank = new Map(layers.map((f, i) => [f, i]));
  for (const dir of readdirSync(root, { withFileTypes: true })) {
    if (dir.isDirectory() && !OUTSIDE.has(dir.name) && !rank.has(dir.name))
      problems.push(`${dir.name}/: a folder not in the layer list (scripts/boundaries.ts LAYERS)`);
  }
  for (const file of files(root)) {
    const name = relative(root, file).split(sep).join("/");
    const from = folderOf(root, file);
    const text = code(readFileSync(file, "utf8"));
    if (name !== NUMERIC)
      for (const kernel of text.matchAll(KERNEL))
        problems.push(`${name}: defines ${kernel[1]}, a numeric kernel (numeric/linalg.ts owns each one)`);
    if (name.startsWith(BUILT_INS))
      for (const call of text.matchAll(APPROXIMATED))
        problems.push(
          `${name}: uses ${call[0]}, which engines may round differently ` +
            "(a built-in uses core/math.ts: sin, exp, pow, …)",
        );
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2] ?? match[3]!;
      const lazy = match[1] === undefined;
      if (spec.startsWith("node:")) {
        problems.push(`${name}: imports ${spec} (the library runs in the browser too)`);
        continue;
      }
      if (!spec.startsWith(".")) continue;
      const to = target(file, spec);
      const rel = relative(root, to).split(sep).join("/");
      if (rel.startsWith("..")) {
        problems.push(`${name}: imports ${spec}, outside src/lib`);
        continue;
      }
      const into = folderOf(root, to);
      if (OUTSIDE.has(into) || into === from) continue;
      if (into === "") {
        problems.push(`${name}: imports the entry ${rel} (entries import the rooms, not the reverse)`);
        continue;
      }
      if (from !== "") {
        if (!graph.has(from)) graph.set(from, new Set());
        graph.get(from)!.add(into);
        if ((rank.get(into) ?? -1) > (rank.get(from) ?? -1))
          problems.push(`${name}: ${from} imports ${into}, a folder above it (upward import)`);
      }
      const door = rel === `${into}/index.ts` || SECOND_DOORS.has(rel);
      if (!door && !(lazy && LAZY.has(rel)))
        problems.push(`${name}: imports ${rel} past ${into}'s door (import ${into}/index.js)`);
    }
  }
  for (const cycle of cycles(graph)) problems.push(`folder cycle: ${cycle.join(" -> ")}`);
  const sorted = new Map([...graph].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, [...v].sort()]));
  return { graph: sorted, problems };
}

/**
 * The library's clients (the CLI): every import of a module under libRoot goes through a folder's
 * door or an entry at the top of libRoot (or is a late load of a LAZY module).
 */
export function checkClients(dir: string, libRoot: string): string[] {
  const problems: string[] = [];
  for (const file of files(dir)) {
    const text = code(readFileSync(file, "utf8"));
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2] ?? match[3]!;
      if (!spec.startsWith(".")) continue;
      const rel = relative(libRoot, target(file, spec)).split(sep).join("/");
      if (rel.startsWith("..")) continue;
      const parts = rel.split("/");
      const door =
        parts.length === 1 ||
        (parts.length === 2 && parts[1] === "index.ts") ||
        SECOND_DOORS.has(rel) ||
        OUTSIDE.has(parts[0]!);
      if (!door && !(match[1] === undefined && LAZY.has(rel)))
        problems.push(`${relative(dir, file)}: imports src/lib/${rel} past ${parts[0]}'s door`);
    }
  }
  return problems;
}

/** The library's public entries (package.json "exports"), the only modules the site may import. */
export const ENTRIES = new Set(["index.ts", "inspect.ts", "browser.ts", "sdk.ts"]);

/** Whether path lies under dir. */
const isUnder = (dir: string, path: string): boolean => !relative(dir, path).startsWith("..");

/** Pages, components and loaders under a site root, not following its library link. */
function siteFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.name.startsWith(".") || entry.name === "node_modules" || entry.isSymbolicLink()) return [];
    if (entry.isDirectory()) return siteFiles(path);
    return /\.(md|js|ts)$/.test(entry.name) ? [path] : [];
  });
}

/**
 * The site's imports (see the header): `siteRoot/lib` is a link to `libRoot`; a page or component
 * imports nothing outside siteRoot, under the link only ENTRIES, and nothing under `helpers`; a
 * loader and each module under `helpers` (a folder of siteRoot; both run in Node, where any path
 * resolves) import only ENTRIES of libRoot.
 */
export function checkSite(siteRoot: string, libRoot: string, helpers?: string, reportRoot?: string): string[] {
  const problems: string[] = [];
  const linked = (name: string, target: string, what: string) => {
    const at = join(siteRoot, name);
    if (!existsSync(at) || !lstatSync(at).isSymbolicLink())
      problems.push(`site/${name}: not a symbolic link to the ${what} (pages reach the ${what} through it)`);
    else if (resolve(siteRoot, readlinkSync(at)) !== resolve(target))
      problems.push(`site/${name}: links to ${readlinkSync(at)}, not to the ${what}`);
    return at;
  };
  const link = linked("lib", libRoot, "library");
  const reportLink = reportRoot ? linked("report", reportRoot, "report components") : undefined;
  const entryOf = (rel: string) => ENTRIES.has(rel.replace(/\.js$/, ".ts"));
  const check = (file: string, where: string, inNode: boolean) => {
    const text = file.endsWith(".md") ? readFileSync(file, "utf8") : code(readFileSync(file, "utf8"));
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2] ?? match[3]!;
      if (!spec.startsWith(".")) continue;
      const path = resolve(dirname(file), spec);
      const inSite = relative(siteRoot, path);
      if (!inNode && helpers && isUnder(helpers, path)) {
        problems.push(`${where}: imports the loader helper ${spec} (Node-only, for loaders)`);
        continue;
      }
      if (!inNode && (inSite.startsWith("..") || inSite === "")) {
        problems.push(`${where}: non-local import ${spec} (outside the site root; use ./lib/index.js)`);
        continue;
      }
      // The report components (site/report → src/report) are reached through their entry only.
      const viaReport = reportLink && !inNode ? relative(reportLink, path) : "..";
      if (!viaReport.startsWith("..") && viaReport.replace(/\.js$/, ".ts") !== "index.ts")
        problems.push(`${where}: imports the report components' ${viaReport}, not their entry (report/index.js)`);
      const viaLink = relative(link, path);
      const inLib = inNode ? relative(libRoot, path) : viaLink;
      if (!inLib.startsWith("..") && !entryOf(inLib.split(sep).join("/")))
        problems.push(`${where}: imports the library's ${inLib.split(sep).join("/")}, not a public entry`);
    }
  };
  for (const file of siteFiles(siteRoot)) {
    const where = `site/${relative(siteRoot, file).split(sep).join("/")}`;
    check(file, where, LOADER.test(file) || (helpers !== undefined && isUnder(helpers, file)));
  }
  // The report components themselves use the library's public entries only, as a user's page would.
  if (reportRoot && existsSync(reportRoot))
    for (const file of files(reportRoot)) check(file, `src/report/${relative(reportRoot, file)}`, true);
  return problems;
}

/** Each cycle of the folder graph once, found by depth-first search. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const out: string[][] = [];
  const seen = new Set<string>();
  const found = new Set<string>();
  const visit = (node: string, path: string[]) => {
    const at = path.indexOf(node);
    if (at >= 0) {
      const cycle = [...path.slice(at), node];
      const key = [...cycle.slice(0, -1)].sort().join(",");
      if (!found.has(key)) {
        found.add(key);
        out.push(cycle);
      }
      return;
    }
    if (seen.has(node)) return;
    for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
    if (path.length === 0 || !path.includes(node)) seen.add(node);
  };
  for (const node of [...graph.keys()].sort()) visit(node, []);
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? fileURLToPath(new URL("../src/lib", import.meta.url)));
  const { graph, problems } = checkBoundaries(root);
  if (!process.argv[2]) {
    problems.push(...checkClients(fileURLToPath(new URL("../src/cli", import.meta.url)), root));
    const site = fileURLToPath(new URL("../site", import.meta.url));
    problems.push(
      ...checkSite(
        site,
        root,
        fileURLToPath(new URL("../site/data/helpers", import.meta.url)),
        fileURLToPath(new URL("../src/report", import.meta.url)),
      ),
    );
  }
  console.log("src/lib folder graph (folder -> folders it imports):");
  for (const [from, to] of graph) console.log(`  ${from.padEnd(10)} -> ${to.join(", ") || "(none)"}`);
  for (const problem of problems) console.error(`boundaries: ${problem}`);
  if (problems.length) {
    console.error(`boundaries: ${problems.length} problem(s)`);
    process.exit(1);
  }
  console.log("boundaries: every import goes through a door, downward; no node: module; the site uses public entries");
}
