import { dist, launchChromium, serveStatic } from "../test/helpers/site.js";
const server = await serveStatic(dist);
const browser = await launchChromium();
for (const width of [320, 500, 640, 800, 1024, 1440, 1920]) {
  for (const path of ["/docs/toy", "/docs/search-benchmark"]) {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width, height: 900 });
    const errors: string[] = [];
    page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
    await page.goto(server.origin + path, { waitUntil: "networkidle" });
    await page.waitForTimeout(500);
    const sw = await page.evaluate(() => document.scrollingElement!.scrollWidth);
    console.log(width, path, "errors", errors.length, [...new Set(errors)].slice(0, 2).map((e) => e.slice(0, 150)), "sw", sw);
    await page.close();
  }
}
await browser.close();
await server.close();
