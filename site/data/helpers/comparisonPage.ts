/**
 * What site/data/comparison.json.ts prints (the loader only prints it; see docs/design.md#site).
 *
 * Data loader for site/comparison.md (paper §5.3, Table 1 and Fig. 3): the committed sweep
 *   npx consolesr sweep sweeps/comparison.json --out data/sweeps/comparison
 * read cell by cell (sweepGrid.ts): syn1 and syn2 × {consolesr, paper, dsr, vpg, eql, mlp} ×
 * seeds 0–4, beside the paper's Table 1 (its learned equations, typed in from the paper as
 * facts). A cell not run yet is listed as missing. No search runs here.
 */
import { summarise, sweepGrid, type SweepCell } from "./sweepGrid.js";

export async function comparisonPage(): Promise<string> {
  const grid = sweepGrid("comparison");

  /** Paper Table 1: each method's learned equations (the paper shows the best of 5 seeds for the baselines). */
  const paper: Record<string, Record<string, string[]>> = {
    syn1: {
      consolesr: [
        String.raw`y_1=3x_1^2\cos(2.5x_2)`,
        String.raw`y_2=3.999x_1x_3`,
        String.raw`y_3=3x_3^2\cos(0.005x_1)`,
      ],
      dsr: [
        String.raw`y_1=0.905x_2+3.88\cos(2.48x_2)+1.74x_1^2\cos(1.98x_1)`,
        String.raw`y_2=4.02x_1x_3`,
        String.raw`y_3=3x_3^2`,
      ],
      vpg: [
        String.raw`y_1=-0.364x_1^2\cos(1.56x_3)+4.707x_2+0.854x_2^2\cos(1.98x_1)`,
        String.raw`y_2=3.293x_2+0.554\cos(2.82x_2)`,
        String.raw`y_3=3x_3^3`,
      ],
      eql: [
        String.raw`y_1=0.23x_1+0.021x_3^2+0.283x_3`,
        String.raw`y_2=0.03x_1x_3+0.488x_1+0.045x_3^2+0.6x_3`,
        String.raw`y_3=0.366x_1+0.03x_3^2+0.45x_3`,
      ],
    },
    syn2: {
      consolesr: [
        String.raw`y_1=1.48\sqrt{x_1}x_2+1.00x_1x_2^2`,
        String.raw`y_2=\sin(1.8x_1)\big(\log(2.999x_2)+0.999\sqrt{x_3}\big)`,
        String.raw`y_3=1.933\sqrt{x_3}\log(1.598x_1)+1.002x_1^2`,
      ],
      dsr: [
        String.raw`y_1=1.223\sqrt{x_1}x_2+0.181x_1\log(x_3)+0.925x_1x_2^2`,
        String.raw`y_2=\sin(1.633x_1)\log(2.965x_2)+0.874\sin(1.723x_1)\sqrt{x_3}`,
        String.raw`y_3=2.081\sqrt{x_3}x_2+1.045x_1^2`,
      ],
      vpg: [
        String.raw`y_1=1.462\log(x_1)x_2+0.830x_1x_2^2`,
        String.raw`y_2=\sin(1.220x_1)\log(3.024x_2)+0.248\sin(1.454x_1)x_2^2+0.567\sin(1.56x_3)`,
        String.raw`y_3=2.081\sqrt{x_3}x_2+1.045x_1^2`,
      ],
      eql: [
        String.raw`y_1=0.44x_2+0.2x_1^2+0.14x_1x_2^2+0.45x_1x_2+0.51x_1+0.24x_2^2+0.55x_2+0.705`,
        String.raw`y_2=0.018x_1^2+0.012x_1x_2^2+0.0636`,
        String.raw`y_3=0.383x_2+0.357x_3+0.31x_1x_2+0.487`,
      ],
    },
  };

  /** The best run of a group, as the paper picks the baselines' (lowest mean E_c, then lowest worst test NRMSE). */
  function best(cells: SweepCell[]): SweepCell | null {
    const ran = cells.filter((c) => c.present);
    if (ran.length === 0) return null;
    const key = (c: SweepCell) => [c.ec ?? Infinity, c.testNrmse ?? Infinity] as const;
    return ran.reduce((a, b) => {
      const [ka, kb] = [key(a), key(b)];
      return kb[0] < ka[0] || (kb[0] === ka[0] && kb[1] < ka[1]) ? b : a;
    });
  }

  const groups = (grid.spec.experiments ?? []).flatMap((experiment) =>
    (grid.spec.methods ?? []).map((method) => {
      const cells = grid.cells.filter((c) => c.experiment === experiment && c.method === method);
      const tests = cells.filter((c) => c.present && c.testNrmse !== null).map((c) => c.testNrmse!);
      return {
        experiment,
        method,
        ...summarise(cells),
        testMean: tests.length ? tests.reduce((a, b) => a + b, 0) / tests.length : null,
        testMin: tests.length ? Math.min(...tests) : null,
        testMax: tests.length ? Math.max(...tests) : null,
        best: best(cells),
        command: (seed: number) => `npx consolesr run ${experiment} --method ${method} --seed ${seed}`,
      };
    }),
  );
  return JSON.stringify({
    ...grid,
    paper,
    groups: groups.map(({ command, ...g }) => ({ ...g, command: command(g.best?.seed ?? 0) })),
  });
}
