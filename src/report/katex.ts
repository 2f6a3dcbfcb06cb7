// Offline KaTeX helper for Framework pages. Use instead of the implicit `tex` global, which
// Framework resolves to an npm: import from a CDN. The bare specifier "katex" is self-hosted by
// Framework from node_modules. Pages also need the stylesheet (fonts inlined):
//   <link rel="stylesheet" href="./components/katex.css">   (served by katex.css.ts)
import katex from "katex";

/**
 * Render a TeX string to a DOM element.
 * @param {string} source TeX source
 * @param {{displayMode?: boolean}} [options] displayMode: block (div) instead of inline (span)
 * @returns {HTMLElement}
 */
export function tex(source: unknown, { displayMode = false } = {}): HTMLElement {
  const element = document.createElement(displayMode ? "div" : "span");
  katex.render(String(source), element, { displayMode, throwOnError: false, output: "htmlAndMathml" });
  return element;
}

/** Display-mode shorthand: `tex.block("x^2")`. */
tex.block = (source: unknown): HTMLElement => tex(source, { displayMode: true });

/** A column's name as TeX: `y2` and `y_2` → `y_{2}`; any other underscore escaped (`rate_in` → `rate\_in`). */
export const texName = (name: string): string =>
  name.replace(/^([A-Za-z]+)_?(\d+)$/, "$1_{$2}").replace(/_(?!\{)/g, "\\_");
