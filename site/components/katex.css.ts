// Framework data loader for components/katex.css: KaTeX's stylesheet with every font inlined.
// katex.min.css refers to fonts/*.woff2, *.woff and *.ttf by relative URL, which Framework cannot
// bundle; here each @font-face keeps only its woff2 source, inlined as a data: URL.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const cssPath = createRequire(import.meta.url).resolve("katex/dist/katex.min.css");
const dir = dirname(cssPath);
const css = readFileSync(cssPath, "utf8");

let fonts = 0;
const out = css.replace(/src:([^;}]*)/g, (_match, sources: string) => {
  const woff2 = /url\((["']?)(fonts\/[^"')]+\.woff2)\1\)/.exec(sources);
  if (!woff2) throw new Error(`katex.css loader: no woff2 source in ${sources}`);
  const data = readFileSync(join(dir, woff2[2]!)).toString("base64");
  fonts++;
  return `src:url(data:font/woff2;base64,${data}) format("woff2")`;
});

if (fonts === 0 || /url\((?!data:)/.test(out)) throw new Error("katex.css loader: unexpected katex.min.css layout");
process.stdout.write(out);
