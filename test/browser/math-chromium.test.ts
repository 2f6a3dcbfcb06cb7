/**
 * The deterministic elementary functions of src/lib/core/math.ts in headless Chromium (Debian's,
 * driven by playwright-core): the module and the argument generator (test/helpers/mathArgs.ts)
 * bundled by esbuild into an about:blank page, the results on the same 1,000,000 seeded arguments
 * per function hashed there and in Node, and the hashes compared. How many of Chromium's own Math.*
 * results differ from ours is reported (it is why the module exists), not asserted. The bounds
 * against a reference and the special cases run in Node: test/unit/math.test.ts.
 */
import test, { type TestContext } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { build } from "esbuild";
import {
  type Arguments,
  BLOCKS,
  type FunctionReport,
  functionReport,
  mathArguments,
  NAMES,
  type Name,
  resultBits,
} from "../helpers/mathArgs.js";
import { ensureChromium, launchChromium, repo } from "../helpers/site.js";

const COUNT = 1_000_000;
const argumentCache = new Map<Name, Arguments>();
const args = (name: Name): Arguments => {
  let a = argumentCache.get(name);
  if (!a) {
    a = mathArguments(name, COUNT);
    argumentCache.set(name, a);
  }
  return a;
};
const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(3)} %`;

/** Where two engines' results part: the first argument of the first differing block, fetched from both. */
async function firstDifference(
  name: Name,
  node: FunctionReport,
  chromium: FunctionReport,
  fetch: (from: number, to: number) => Promise<string[]>,
): Promise<string> {
  const block = node.blocks.findIndex((h, i) => h !== chromium.blocks[i]);
  if (block < 0) return "no block differs";
  const size = Math.ceil(COUNT / BLOCKS);
  const from = block * size;
  const to = Math.min(COUNT, from + size);
  const theirs = await fetch(from, to);
  const here = resultBits(name, COUNT, from, to);
  const i = here.findIndex((bits, j) => bits !== theirs[j]);
  const a = args(name);
  const arg = a.y ? `${a.x[from + i]}, ${a.y[from + i]}` : `${a.x[from + i]}`;
  return `first at ${name}(${arg}): Node 0x${here[i]}, Chromium 0x${theirs[i]}`;
}

type Bundle = typeof import("../helpers/mathArgs.js");

test("Chromium: the same bits as Node on the same 1,000,000 seeded arguments per function", {
  timeout: 300_000,
}, async (t: TestContext) => {
  const install = ensureChromium();
  if (install !== undefined) {
    t.skip(install);
    return;
  }
  const started = performance.now();
  const bundled = await build({
    entryPoints: [join(repo, "test", "helpers", "mathArgs.ts")],
    bundle: true,
    write: false,
    format: "iife",
    globalName: "consolesrMath",
    platform: "browser",
    target: "es2022",
    logLevel: "silent",
  });
  const script = bundled.outputFiles[0]!.text;
  const browser = await launchChromium({ downloads: false });
  t.after(() => browser.close());
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto("about:blank");
  await page.addScriptTag({ content: script });
  const agent = await page.evaluate(() => navigator.userAgent);
  t.diagnostic(`${/HeadlessChrome\/[\d.]+/.exec(agent)?.[0] ?? agent}; bundle ${script.length} bytes`);

  const problems: string[] = [];
  for (const name of NAMES) {
    const chromium = await page.evaluate(
      ([n, count]) => (globalThis as unknown as { consolesrMath: Bundle }).consolesrMath.functionReport(n, count),
      [name, COUNT] as const,
    );
    const node = functionReport(name, COUNT);
    if (chromium.argumentHash !== node.argumentHash) problems.push(`${name}: the arguments differ`);
    else if (chromium.hash !== node.hash) {
      const where = await firstDifference(name, node, chromium, (from, to) =>
        page.evaluate(
          ([n, count, a, b]) =>
            (globalThis as unknown as { consolesrMath: Bundle }).consolesrMath.resultBits(n, count, a, b),
          [name, COUNT, from, to] as const,
        ),
      );
      problems.push(`${name}: results differ (hash ${node.hash} in Node, ${chromium.hash} in Chromium); ${where}`);
    }
    if (chromium.engineDiffersSpec > 0) {
      problems.push(
        `${name}: Chromium's Math.${name} differs from ours on ${chromium.engineDiffersSpec} special cases`,
      );
    }
    const examples = chromium.examples.map(([x, y, o, e]) => `x=0x${x}${y ? ` y=0x${y}` : ""}: 0x${o} vs 0x${e}`);
    t.diagnostic(
      `${name}: hash ${chromium.hash}; Chromium's Math.${name} differs from ours on ${chromium.engineDiffers} of ` +
        `${COUNT} (${percent(chromium.engineDiffers, COUNT)}), Node's on ${node.engineDiffers}; ` +
        `in Chromium ${chromium.ms.ours.toFixed(0)} ms ours, ${chromium.ms.engine.toFixed(0)} ms Math.${name}` +
        (examples.length > 0 ? `; e.g. ${examples[0]}` : ""),
    );
  }
  t.diagnostic(`Chromium check ${((performance.now() - started) / 1000).toFixed(1)} s`);
  assert.deepEqual(errors, [], "the page threw");
  assert.deepEqual(problems, []);
});
