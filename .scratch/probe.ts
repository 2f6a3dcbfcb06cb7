import { dist, launchChromium, serveStatic } from "../test/helpers/site.js";
const pages = (process.argv[2] ?? "/,/docs/toy,/docs/syn1,/docs/syn2,/docs/pow,/docs/mas,/docs/search-benchmark,/docs/plugins").split(",");
const missing: string[] = [];
const server = await serveStatic(dist, (p) => missing.push(p));
const browser = await launchChromium();
for (const width of [1280, 390]) {
  for (const path of pages) {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width, height: 900 });
    const errors: string[] = [];
    const outside: string[] = [];
    page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
    page.on("pageerror", (e) => errors.push("pageerror " + e.message));
    page.on("request", (r) => { if (!r.url().startsWith(server.origin) && !/^(data|blob):/.test(r.url())) outside.push(r.url()); });
    const t0 = Date.now();
    await page.goto(server.origin + path, { waitUntil: "networkidle" });
    await page.waitForTimeout(1000);
    const sw = await page.evaluate(() => document.scrollingElement!.scrollWidth);
    const uniq = [...new Set(errors)];
    console.log(width, path, `${Date.now() - t0}ms`, "errors", errors.length, uniq.slice(0, 3).map((e) => e.slice(0, 150)), "scrollWidth", sw, "outside", outside.length);
    await page.close();
  }
}
console.log("missing", [...new Set(missing)]);
await browser.close();
await server.close();
