import { readFileSync } from "node:fs";
const [a, b] = process.argv.slice(2).map((f) => JSON.parse(readFileSync(f, "utf8")));
const key = (r) => `${r.method}|${r.equation}|${r.seed}|${r.snrDb}`;
const old = new Map(a.runs.map((r) => [key(r), r]));
const byEq = new Map();
let same = 0, changedAnswer = 0, gained = 0, lost = 0;
for (const r of b.runs) {
  const o = old.get(key(r)); if (!o) continue;
  if (o.learned === r.learned && o.structures === r.structures && o.recovered === r.recovered) { same++; continue; }
  if (o.learned !== r.learned) changedAnswer++;
  if (r.recovered && !o.recovered) gained++;
  if (!r.recovered && o.recovered) lost++;
  const e = byEq.get(r.equation) ?? { gained: [], lost: [], other: 0 };
  if (r.recovered && !o.recovered) e.gained.push(`${r.method} s${r.seed}`);
  else if (!r.recovered && o.recovered) e.lost.push(`${r.method} s${r.seed}`);
  else e.other++;
  byEq.set(r.equation, e);
}
console.log({ runs: b.runs.length, same, changedAnswer, gained, lost });
for (const [eq, e] of byEq) if (e.gained.length || e.lost.length) console.log(eq, "gained:", e.gained.join(", ") || "-", "| lost:", e.lost.join(", ") || "-", "| other changes:", e.other);
for (const s of b.summary) console.log(s.method, s.recovered, "/", s.runs, "median", s.medianStructures, "sec", s.medianSeconds);
console.log(b.ratios);
