// Framework data loader for components/inputs.css: the stylesheet of @observablehq/inputs.
// Framework adds it by itself only to pages that use the implicit `Inputs` global (an npm: import
// fetched from a CDN); pages that import "@observablehq/inputs" from node_modules link this file:
//   <link rel="stylesheet" href="./components/inputs.css">
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const css = readFileSync(createRequire(import.meta.url).resolve("@observablehq/inputs/dist/index.css"), "utf8");
if (/url\(|@import/.test(css)) throw new Error("inputs.css loader: the stylesheet refers to other files");
process.stdout.write(css);
