import { readFileSync } from "node:fs";
const j = JSON.parse(readFileSync(process.argv[2], "utf8"));
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = Math.floor(s.length / 2); return s.length ? (s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2) : null; };
for (const snr of j.manifest.noise) for (const method of j.manifest.methods) {
  const runs = j.runs.filter((r) => r.method === method && r.snrDb === snr);
  const hits = runs.filter((r) => r.recovered);
  const within = (k) => hits.filter((r) => r.structuresToRecovery <= k).length;
  const s = j.summary.find((x) => x.method === method && x.snrDb === snr);
  console.log(`| ${method} | ${hits.length} / ${runs.length} (${(100 * hits.length / runs.length).toFixed(0)} %) | ${s.sums.recovered} / ${s.sums.runs} | ${s.products.recovered} / ${s.products.runs} | ${med(hits.map((r) => r.structuresToRecovery))} | ${med(runs.map((r) => r.recovered ? r.structuresToRecovery : 201))} | ${within(25)} / ${within(50)} / ${within(100)} | ${med(runs.map((r) => r.seconds)).toFixed(2)} |`);
}
console.log(j.ratios.map((r) => `${r.baseline}/consolesr ${r.snrDb}: medians ${r.ratioOfMedians?.toFixed(2)}, paired ${r.medianPairedRatio?.toFixed(2)} over ${r.pairs}`).join("\n"));
console.log(j.manifest.wallSeconds, j.manifest.cpuSeconds);
