/**
 * `npm run bench` (last part): one run of every baseline on syn1 with its defaults — the MLP,
 * EQL, DSR and VPG — beside the CoNSoLe default (consolesr), through the pipeline as `consolesr
 * run syn1 --method …` runs it (2000 train rows on U(1,2), 2000 test rows on U(3,4), seed 0 or
 * $SEED): wall and CPU seconds of the run, exact recoveries, each target's test NRMSE, and for
 * DSR and VPG the expressions sampled per target. Prints figures; asserts nothing.
 */
import { useBackend } from "../src/lib/engine/backend.js";
import { prepareRun, runPrepared } from "../src/lib/run/index.js";
import type { DsrTrainingRecord } from "../src/lib/result/result.js";
import { METHODS, type SearchMethod } from "../src/lib/search/index.js";
import { tf } from "../src/lib/engine/tf.js";
import { createRegistries } from "../src/lib/plugins/builtin.js";

tf.env().set("PROD", true);
await useBackend("cpu");
const registries = createRegistries();
const seed = Number(process.env.SEED ?? 0);
const methods: SearchMethod[] = ["consolesr", "mlp", "eql", "dsr", "vpg"];

console.log(`# Baselines on syn1 (seed ${seed}, 2000 train and 2000 test rows, each method's defaults, tfjs cpu)`);
console.log("method     wall s  cpu s  exact  test NRMSE y1/y2/y3           samples (DSR, VPG)");
for (const method of methods) {
  const prepared = prepareRun({ experiment: "syn1", seed, method }, { registries });
  const cpu = process.cpuUsage();
  const started = performance.now();
  const { result } = await runPrepared(prepared, { backend: tf.getBackend() });
  const wall = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const evaluation = result.evaluation ?? [];
  const exact = `${evaluation.filter((e) => e.exact).length}/${evaluation.length}`;
  const nrmse = evaluation.map((e) => e.testNrmse.toExponential(1)).join("/");
  const samples = (result.models ?? [])
    .map((m) => (m.training as Partial<DsrTrainingRecord>).samples)
    .filter((s) => s !== undefined)
    .join("/");
  console.log(
    `${method.padEnd(11)}${wall.toFixed(1).padEnd(8)}${((used.user + used.system) / 1e6).toFixed(1).padEnd(7)}` +
      `${exact.padEnd(7)}${nrmse.padEnd(30)}${samples}`,
  );
}
console.log(
  `\n${methods.map((m) => `${m}: ${METHODS[m].description}`).join("\n")}\n` +
    "(DSR and VPG: the budget counts sampled expressions per target; a run stops early at train NRMSE ≤ 1e-6.)",
);
