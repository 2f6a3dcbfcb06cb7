// htl 0.3 ships no types. Its tagged templates return a DOM node (an element, a fragment or text,
// by what the template holds): typed loosely here, and each component states what it returns.
declare module "htl" {
  // biome-ignore lint/suspicious/noExplicitAny: htl's result is any node; components cast it.
  export function html(strings: TemplateStringsArray, ...values: unknown[]): any;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  export function svg(strings: TemplateStringsArray, ...values: unknown[]): any;
}
