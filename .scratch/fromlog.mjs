// Fallback: rebuild a bench JSON's runs from a bench:search stderr log (for --merge).
import { readFileSync, writeFileSync } from "node:fs";
const [log, out, mode] = process.argv.slice(2);
const runs = [];
for (const line of readFileSync(log, "utf8").split("\n")) {
  const m = /^\[\d+\/\d+\] (\S+) (\S+) seed (\d+)(?: (\d+) dB)?: (recovered at (\d+)|not recovered \((\S+), (\d+) structures\)), ([\d.]+) s: (.*)$/.exec(line);
  if (!m) continue;
  const recovered = Boolean(m[6]);
  runs.push({ method: m[1], equation: m[2], seed: Number(m[3]), snrDb: m[4] ? Number(m[4]) : null, budget: 200, episodes: 4000, rows: 500, mode, recovered, exact: recovered, structuresToRecovery: recovered ? Number(m[6]) : null, structures: recovered ? Number(m[6]) : Number(m[8]), stopReason: recovered ? "reward-threshold" : m[7], seconds: Number(m[9]), learned: m[10] });
}
const methods = [...new Set(runs.map((r) => r.method))];
writeFileSync(out, JSON.stringify({ manifest: { methods, wallSeconds: 0 }, runs }));
console.log(runs.length, "runs", methods);
