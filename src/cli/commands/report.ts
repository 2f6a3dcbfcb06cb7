/**
 * `consolesr report <data.csv> --target y [fit flags] --out DIR`: fits the CSV as `fit` does and
 * writes an Observable Framework project of the experiment (docs/design.md#own-report): a page
 * with the data, the learned equations (KaTeX), the Pareto front, fit diagnostics, the manifest
 * and the commands that reproduce it, and a "Re-run with…" form; a data loader that re-runs the
 * search through the public library at every build and says on the page whether it reproduced.
 * The project depends on this exact consolesr version (or, with --package, on a local build) and
 * takes its offline-build settings from the package (`consolesr/framework`).
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { basename, isAbsolute, join, relative, resolve } from "node:path";
import type { Command } from "commander";
import { InputError } from "../../lib/core/index.js";
import { VERSION } from "../../lib/core/index.js";
import { resultToJson, type ResultJson } from "../../lib/result/index.js";
import { reportDependencies } from "../../framework/index.js";
import { BOUNDS } from "../../lib/search/index.js";
import { loadRegistries } from "../sandbox/plugins.js";
import { reporter } from "../io.js";
import { fitCsv, fromCli, type FitFlags } from "./commands.js";
import { addFitFlags, addModelFlags, addSearchFlags, listOption, numberOption } from "./fitOptions.js";
import { emit } from "./output.js";

/** A word for a shell: quoted when it holds anything but plain characters. */
const shellWord = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`);

/** The project's name in package.json: the data file's stem, lower-case, npm-safe. */
const projectName = (file: string) =>
  `${
    basename(file)
      .replace(/\.[^.]*$/, "")
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, "-")
      .replace(/^-+|-+$/g, "") || "data"
  }-report`;

/** A JavaScript string literal (for names written into the page's code). */
const js = (text: string) => JSON.stringify(text);

/**
 * The consolesr dependency: this version from the registry, or a local tarball or folder. A tarball
 * is copied into the project (vendor/), so that the project still installs after it is moved (a
 * `file:../x.tgz` broke then); a folder (a checkout) is linked by its path from the project.
 */
function packageSpec(pkg: string | undefined, out: string): { spec: string; tarball?: string } {
  if (pkg === undefined) return { spec: VERSION };
  const path = resolve(pkg);
  if (!existsSync(path)) throw new InputError(`--package ${pkg}: no such file or folder`);
  const isDir = statSync(path).isDirectory();
  if (isDir && !existsSync(join(path, "package.json")))
    throw new InputError(`--package ${pkg}: a folder without package.json (name a consolesr checkout or its npm pack)`);
  if (!isDir && !/\.(tgz|tar\.gz)$/.test(path))
    throw new InputError(`--package ${pkg}: not a .tgz tarball (npm pack makes one) or a folder`);
  if (!isDir) return { spec: `file:vendor/${basename(path)}`, tarball: path };
  const rel = relative(resolve(out), path);
  return { spec: `file:${isAbsolute(rel) ? path : rel.split("\\").join("/")}` };
}

/** The page of the report: the published result and the build's check, through `consolesr/report`. */
function page(o: { title: string; data: string; command: string; fitCommand: string }): string {
  const fence = "```";
  return `---
title: ${JSON.stringify(o.title.replace(/\n/g, " "))}
toc: true
---

<link rel="stylesheet" href="./components/katex.css">

${fence}js
// The report components and the library, from the consolesr package this project installs.
import {csvRerun, dataSummary, diagnostics, equationCard} from "consolesr/report";
import {paretoChart, reproduceBlock, reproduceCheck} from "consolesr/report";
import {parseCsv} from "consolesr";
${fence}

${fence}js
// The published result (written by consolesr report), its data, and the build's re-run of it.
const resultText = await FileAttachment("data/result.json").text();
const result = JSON.parse(resultText);
const csvBytes = await FileAttachment(${js(`data/${o.data}`)}).arrayBuffer();
const table = parseCsv(new TextDecoder().decode(csvBytes), ${js(o.data)});
const check = await FileAttachment("data/check.json").json();
${fence}

# ${o.title.replace(/\n/g, " ")}

Symbolic regression of \`${o.data}\` with consolesr \${result.manifest.version}: the equations below
were found by \`${o.command}\`.

## The data

${fence}js
const {targets, inputs} = result.manifest.config;
display(dataSummary(table, {targets, inputs, name: ${js(o.data)}}));
${fence}

## The learned equations

${fence}js
display(equationCard(result))
${fence}

${fence}js
display(reproduceCheck(check))
${fence}

## The Pareto front

For each output, the best equation found at each complexity that beats every simpler one; the
chosen one is marked.

${fence}js
for (const e of result.equations) display(paretoChart(result, e.target, {width: Math.min(width, 560)}));
${fence}

## Fit diagnostics

Predicted against observed on every row of the data, and the residuals.

${fence}js
for (const e of result.equations) display(diagnostics(result, table, e.target, {width: Math.min(width, 760)}));
${fence}

## Reproduce it

${fence}js
display(reproduceBlock(result, {command: ${js(o.fitCommand)}, file: "result.json", text: resultText}))
${fence}

In this project: \`npx consolesr reproduce src/data/result.json\` re-runs it from the JSON alone, and
\`npm run build\` does the same before it builds the page (the check above).

## Re-run with…

The published run again in this browser, with another seed, episode limit, budget or time limit:
the search runs in a Web Worker (the page stays responsive; Stop keeps the best found so far), and
its JSON, downloaded, is what \`consolesr fit\` writes for those flags.

${fence}js
display(csvRerun({
  published: {label: \`published (seed \${result.manifest.seed})\`, text: resultText, filename: "result.json"},
  csv: {name: ${js(o.data)}, bytes: csvBytes},
  git: result.manifest.git,
  heading: false
}))
${fence}
`;
}

/** The data loader that re-runs the result at build time through the public library. */
const CHECK_LOADER = `// Data loader (runs at every build): the published result re-run from its manifest on the same
// CSV through consolesr's public library, and compared field by field (consolesr reproduce).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { parseCsv, reproduceResult, VERSION } from "consolesr";

const here = (name) => new URL(name, import.meta.url);
const text = readFileSync(here("./result.json"), "utf8");
const name = JSON.parse(text).manifest.config.data;
const started = performance.now();
let out;
try {
  const bytes = readFileSync(here(\`./\${name}\`));
  const table = parseCsv(bytes.toString("utf8"), name);
  table.sha256 = createHash("sha256").update(bytes).digest("hex");
  const { comparison, lines } = await reproduceResult(text, { table, file: name, name: "result.json" });
  out = { match: comparison.match, lines };
} catch (error) {
  out = { match: false, lines: [], error: error instanceof Error ? error.message : String(error) };
}
out.seconds = (performance.now() - started) / 1000;
out.version = VERSION;
// A result that does not validate or does not reproduce (a hand edit, a forged file) fails the
// build with one line: a deploy never publishes it.
if (!out.match) {
  const why = out.error ?? out.lines.find((line) => /DIFFERENT|NOT reproduced/.test(line)) ?? "it differs";
  process.stderr.write(\`consolesr: src/data/result.json does not reproduce, so the build stops: \${why}\\n\`);
  process.exit(1);
}
process.stdout.write(JSON.stringify(out));
`;

const KATEX_LOADER = `// Data loader: KaTeX's stylesheet with its fonts inlined (offline), from the consolesr package.
import { katexStylesheet } from "consolesr/framework";

process.stdout.write(katexStylesheet());
`;

function readme(o: { title: string; data: string; command: string }): string {
  return `# ${o.title}

A reproducible report of a symbolic regression of \`${o.data}\`, written by \`${o.command}\`
(consolesr ${VERSION}). It is an [Observable Framework](https://observablehq.com/framework/) project:

    npm install
    npm run build      # re-runs the search, then builds dist/ (it stops if the result does not reproduce)
    npm run dev        # a live preview

\`dist/\` is a static site: put it on any web server. The build needs no network once the
packages are installed. \`npx consolesr reproduce src/data/result.json\` re-runs the result
from its JSON alone.

- \`src/index.md\`: the page (components from \`consolesr/report\`).
- \`src/data/result.json\`: the published result; \`src/data/${o.data}\`: its data.
- \`src/data/check.json.js\`: the build's re-run of the result.
- \`observablehq.config.js\`: Framework's settings for an offline build, from \`consolesr/framework\`.
`;
}

export interface ReportProject {
  out: string;
  data: string;
  files: string[];
}

/** Writes the project (the result already made). */
export function writeReportProject(
  out: string,
  o: { csv: string; result: ResultJson; title: string; command: string; pkg?: string },
): ReportProject {
  const data = basename(o.csv);
  const { spec, tarball } = packageSpec(o.pkg, out);
  const config = o.result.manifest.config as Record<string, unknown>;
  const fitFlags = [
    `--target ${(config.targets as string[]).join(",")}`,
    `--inputs ${(config.inputs as string[]).join(",")}`,
    `--seed ${o.result.manifest.seed}`,
    config.method && config.method !== "consolesr" ? `--method ${config.method}` : "",
    "--out result.json",
  ].filter(Boolean);
  const fitCommand = `npx consolesr fit ${shellWord(data)} ${fitFlags.join(" ")}`;
  const files: Record<string, string> = {
    "package.json": `${JSON.stringify(
      {
        name: projectName(data),
        private: true,
        type: "module",
        scripts: {
          dev: "OBSERVABLE_TELEMETRY_DISABLE=true observable preview",
          // A build re-runs the check loader: its cached output is dropped first.
          prebuild: "node -e \"require('node:fs').rmSync('src/.observablehq/cache/data',{recursive:true,force:true})\"",
          build: "OBSERVABLE_TELEMETRY_DISABLE=true observable build",
          reproduce: "consolesr reproduce src/data/result.json",
        },
        dependencies: { consolesr: spec, ...reportDependencies() },
      },
      null,
      2,
    )}\n`,
    "observablehq.config.js": `// Framework's settings for an offline build of this report, from the consolesr package.
import { reportConfig } from "consolesr/framework";

export default await reportConfig({ title: ${js(o.title)} });
`,
    "src/index.md": page({ title: o.title, data, command: o.command, fitCommand }),
    "src/data/result.json": resultToJson(o.result),
    "src/data/check.json.js": CHECK_LOADER,
    "src/components/katex.css.js": KATEX_LOADER,
    "README.md": readme({ title: o.title, data, command: o.command }),
    ".gitignore": "node_modules\ndist\nsrc/.observablehq/cache\n",
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(out, path, ".."), { recursive: true });
    writeFileSync(join(out, path), text);
  }
  copyFileSync(o.csv, join(out, "src/data", data));
  if (tarball !== undefined) {
    mkdirSync(join(out, "vendor"), { recursive: true });
    copyFileSync(tarball, join(out, "vendor", basename(tarball)));
  }
  const vendored = tarball === undefined ? [] : [`vendor/${basename(tarball)}`];
  return { out, data, files: [...Object.keys(files), `src/data/${data}`, ...vendored] };
}

/** The command as it was typed (the flags given on the command line, in their long form). */
function commandLine(file: string, command: Command): string {
  const words = ["npx", "consolesr", "report", file];
  for (const option of command.options) {
    const key = option.attributeName();
    if (command.getOptionValueSource(key) !== "cli" || !option.long) continue;
    const value = command.getOptionValue(key);
    if (typeof value === "boolean") words.push(option.long);
    else words.push(option.long, Array.isArray(value) ? value.join(",") : String(value));
  }
  return words.map(shellWord).join(" ");
}

/** --out DIR: a new folder, or an empty one (a report never overwrites files). */
function checkProjectDir(out: string): void {
  if (!existsSync(out)) {
    const parent = resolve(out, "..");
    if (!existsSync(parent))
      throw new InputError(`--out ${out}: the folder ${relative(".", parent) || "."} does not exist`);
    return;
  }
  if (!statSync(out).isDirectory()) throw new InputError(`--out ${out}: is a file; name a new folder for the project`);
  if (readdirSync(out).length) throw new InputError(`--out ${out}: is not empty; name a new or empty folder`);
}

export function registerReport(program: Command): void {
  addModelFlags(
    addSearchFlags(
      addFitFlags(
        program
          .command("report")
          .description(
            "fit a CSV as fit does and write an Observable Framework project of it: a reproducible report page " +
              "(equations, Pareto front, diagnostics, re-run form) that builds offline into a static site",
          )
          .argument("<data.csv>", "CSV with a header row of column names")
          .addOption(listOption("--target <names>", "target column(s), comma-separated"))
          .addOption(listOption("--inputs <names>", "input columns (default: every column that is not a target)"))
          .addOption(listOption("--symbols <names>", "symbol pool, comma-separated (default: all registered)"))
          .addOption(numberOption("--seed <n>", "random seed, 0…2^32−1", BOUNDS.seed, 0))
          .requiredOption("--out <dir>", "the project folder to write (new, or empty)")
          .option("--title <text>", "the page's title (default: the data file's name)")
          .option(
            "--package <tarball|dir>",
            "make the project depend on this consolesr build (an npm pack tarball or a checkout) " +
              "instead of this version from the registry",
          )
          .option("--quiet", "no progress on stderr"),
      ),
    ),
  ).action(async (file: string, flags: FitFlags & { title?: string; package?: string }, command: Command) => {
    const log = reporter(Boolean(flags.quiet));
    const out = flags.out!;
    checkProjectDir(out);
    if (flags.package !== undefined) packageSpec(flags.package, out);
    const { registries } = await loadRegistries(undefined);
    const run = await fitCsv(file, flags, registries, log, basename(file), fromCli(command));
    if (!run) return;
    const title = flags.title ?? `${basename(file)}: what consolesr finds`;
    const project = writeReportProject(out, {
      csv: file,
      result: run.result,
      title,
      command: commandLine(file, command),
      pkg: flags.package,
    });
    emit(run.result, { ...flags, out: undefined }, run.seconds, log);
    log.info(`wrote the report project ${out} (${project.files.length} files)`);
    log.info(
      `next: cd ${shellWord(out)} && npm install && npm run build   (the site is dist/; npm run dev previews it)`,
    );
    if (run.found?.error) throw run.found.error;
  });
}
