// The deterministic elementary functions of src/lib/core/math.ts, over 1,000,000 seeded arguments per
// function (pairs for pow and hypot; test/helpers/mathArgs.ts):
//
// - their error against a double-double reference (test/helpers/ddmath.ts, itself checked against
//   40-digit decimal expansions), and for sin and cos of |x| > 2^20 against mpmath's values in
//   test/golden/math-large-trig.json (scripts/mathFixture.py), within the bound each test names;
// - ECMAScript's fixed special cases (NaN, ±0, ±∞, …) as Math.* gives them;
// - on Node with V8 11 (Node 20), the bits of Math.* (sin and cos where |x| ≤ 2^19·π/2, beyond
//   which math.ts reduces exactly instead of by fdlibm's routine);
// - the same bits in headless Chromium: test/browser/math-chromium.test.ts.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cos, sin } from "../../src/lib/core/math.js";
import {
  ddExp,
  ddHypot,
  ddLog,
  ddLog10,
  ddLog2,
  ddPow,
  ddSinCos,
  decimalParts,
  ldexp,
  result,
  ulpError,
} from "../helpers/ddmath.js";
import { type Arguments, engine, evaluate, mathArguments, NAMES, type Name, ours, same } from "../helpers/mathArgs.js";
import { repo } from "../helpers/site.js";

const COUNT = 1_000_000;

/**
 * The error bound each function is held to, in ulps. fdlibm's sin, cos, exp, log, log2 and pow are
 * below 1 ulp; log10 (fdlibm's k·log10(2) + log(m)/ln 10, which Node's Math.log10 computes the same
 * way) and V8's hypot (√ of a compensated sum of squares scaled by the larger argument, Node's
 * Math.hypot) are not, and math.ts must give Node's bits, so theirs is 2 ulps.
 */
const BOUND: Record<Name, number> = { sin: 1, cos: 1, exp: 1, log: 1, log2: 1, log10: 2, pow: 1, hypot: 2 };

/** The largest |x| whose sin and cos math.ts reduces as fdlibm does (V8: high word ≤ 0x413921fb). */
const FDLIBM_TRIG_LIMIT = 823549.6653814783;
/** The largest |x| the double-double reference reduces (n·π/2 with n < 2^20 exact). */
const DD_TRIG_LIMIT = 2 ** 20;

const argumentCache = new Map<Name, Arguments>();
const resultCache = new Map<Name, Float64Array>();
const args = (name: Name): Arguments => {
  let a = argumentCache.get(name);
  if (!a) {
    a = mathArguments(name, COUNT);
    argumentCache.set(name, a);
  }
  return a;
};
/** Our results on the arguments. */
const mine = (name: Name): Float64Array => {
  let r = resultCache.get(name);
  if (!r) {
    r = evaluate(ours[name] as (x: number, y: number) => number, args(name));
    resultCache.set(name, r);
  }
  return r;
};

const fmt = (v: number) => (Object.is(v, -0) ? "-0" : String(v));
const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(3)} %`;

// e, ln 10, sin 1, cos 1 and √2 are textbook expansions; the others (of the double arguments written, e.g.
// 0.1 = 0x3fb999999999999a) were computed with mpmath at 60 digits. The tolerance catches a reference that
// drops a part of its constants (ln 2's third part: 6e-31 off at exp(700.5); π/2's last two: 3e-30 at cos(1e5)).
const REFERENCE_TITLE = "the double-double reference agrees with 40-digit decimal expansions (relative error < 1e-31)";
test(REFERENCE_TITLE, () => {
  const known: [string, () => void, string][] = [
    ["exp(1)", () => ddExp(1), "2.718281828459045235360287471352662497757"],
    ["exp(0.1)", () => ddExp(0.1), "1.105170918075647630946638823458779657742"],
    ["exp(-20.5)", () => ddExp(-20.5), "1.250152866386742628937553119231222182272e-9"],
    ["exp(700.5)", () => ddExp(700.5), "1.672185962067498557241036079302120311145e304"],
    ["log(10)", () => ddLog(10), "2.302585092994045684017991454684364207601"],
    ["log(1 + 2^-40)", () => ddLog(1 + 2 ** -40), "9.094947017725146476087627994346924709042e-13"],
    ["log(1e-310)", () => ddLog(1e-310), "-713.8013788281541651006446006623883741382"],
    ["log2(10)", () => ddLog2(10), "3.321928094887362347870319429489390175865"],
    ["log10(2)", () => ddLog10(2), "0.3010299956639811952137388947244930267682"],
    ["sin(1)", () => ddSinCos(1, false), "0.8414709848078965066525023216302989996226"],
    ["cos(1)", () => ddSinCos(1, true), "0.5403023058681397174009366074429766037323"],
    ["cos(0.5)", () => ddSinCos(0.5, true), "0.8775825618903727161162815826038296519916"],
    ["cos(1e5)", () => ddSinCos(1e5, true), "-0.9993608074382124518911354141448022032354"],
    ["sin(1e6)", () => ddSinCos(1e6, false), "-0.3499935021712929521176524867807714690614"],
    ["pow(2, 0.5)", () => ddPow(2, 0.5), "1.414213562373095048801688724209698078570"],
    ["pow(10, -0.3)", () => ddPow(10, -0.3), "0.5011872336272722978138193573445956147300"],
    ["hypot(1, 1)", () => ddHypot(1, 1), "1.414213562373095048801688724209698078570"],
    ["hypot(3e200, 4e199)", () => ddHypot(3e200, 4e199), "3.026549190084311100573106564945290059434e200"],
  ];
  for (const [what, compute, text] of known) {
    compute();
    const { hi, lo, scale } = result;
    const [kh, kl] = decimalParts(text) as [number, number];
    // compared at the reference's scale (hi near 1), where both parts are normal doubles
    const relative = Math.abs((hi - ldexp(kh, -scale) + (lo - ldexp(kl, -scale))) / hi);
    assert.ok(relative < 1e-31, `${what}: reference ${hi}+${lo} (·2^${scale}) vs ${text}: relative error ${relative}`);
  }
});

/** Sets `result` to the reference of `name` at (x, y); false where the result is NaN as ECMAScript requires. */
function reference(name: Name, x: number, y: number): boolean {
  switch (name) {
    case "sin":
    case "cos":
      ddSinCos(x, name === "cos");
      return true;
    case "exp":
      ddExp(x);
      return true;
    case "log":
      ddLog(x);
      return true;
    case "log2":
      ddLog2(x);
      return true;
    case "log10":
      ddLog10(x);
      return true;
    case "pow":
      if (x < 0 && !Number.isInteger(y)) return false;
      ddPow(x, y);
      return true;
    case "hypot":
      ddHypot(x, y);
      return true;
  }
}

/** Where fdlibm's pow (and V8's Math.pow) takes a shortcut: |y| > 2^31 and x within 2^-20 of 1. */
const powShortcut = (y: number) => Math.abs(y) > 2 ** 31;
/**
 * The bound there: log2 x comes from a four-term series through a product that rounds (fdlibm's
 * "ivln2_h has 21 sig. bits" while t has 33), so y·log2 x is off by ~2^-54 of itself and the result
 * by up to ~0.75·|ln result| ulp, beyond 500 ulp near the overflow threshold. Node's Math.pow gives
 * the same bits.
 */
const POW_SHORTCUT_BOUND = 1024;

interface Stats {
  checked: number;
  max: number;
  worst: number;
  notRounded: number;
  aboveOne: number;
}
const emptyStats = (): Stats => ({ checked: 0, max: 0, worst: -1, notRounded: 0, aboveOne: 0 });

for (const name of NAMES) {
  const pair = name === "pow" || name === "hypot";
  const title =
    `${name}: within ${BOUND[name]} ulp of a double-double reference on ${COUNT.toLocaleString("en")} seeded ` +
    `${pair ? "argument pairs" : "arguments"}` +
    (name === "sin" || name === "cos" ? " (|x| ≤ 2^20; beyond, the mpmath fixture)" : "") +
    (name === "pow" ? ` (${POW_SHORTCUT_BOUND} ulp where |y| > 2^31)` : "");
  test(title, (t) => {
    const a = args(name);
    const values = mine(name);
    const xs = a.x;
    const ys = a.y ?? a.x;
    const started = performance.now();
    const main = emptyStats();
    const shortcut = emptyStats();
    let beyond = 0;
    let requiredNaN = 0;
    let tiny = 0;
    let infinite = 0;
    const failures: string[] = [];
    for (let i = a.specCount; i < xs.length; i++) {
      const x = xs[i]!;
      const y = ys[i]!;
      const v = values[i]!;
      if ((name === "sin" || name === "cos") && Math.abs(x) > DD_TRIG_LIMIT) {
        beyond++;
        continue;
      }
      if (!reference(name, x, y)) {
        requiredNaN++;
        if (!Number.isNaN(v) && failures.length < 10) failures.push(`${name}(${x}, ${y}) = ${fmt(v)}, not NaN`);
        continue;
      }
      const inShortcut = name === "pow" && powShortcut(y);
      const stats = inShortcut ? shortcut : main;
      const bound = inShortcut ? POW_SHORTCUT_BOUND : BOUND[name];
      stats.checked++;
      if (Math.abs(v) < 2 ** -1022) tiny++;
      else if (!Number.isFinite(v)) infinite++;
      const error = Math.abs(ulpError(v));
      if (error > 0.5) stats.notRounded++;
      if (error > 1) stats.aboveOne++;
      if (error > stats.max) {
        stats.max = error;
        stats.worst = i;
      }
      if (error > bound && failures.length < 10) {
        const { hi, lo, scale } = result;
        const at = `${name}(${x}${pair ? `, ${y}` : ""}) = ${fmt(v)}`;
        failures.push(`${at}: ${error} ulp (reference (${hi} + ${lo})·2^${scale})`);
      }
    }
    const ms = performance.now() - started;
    const report = (stats: Stats, what: string) => {
      const w = stats.worst;
      const at = w < 0 ? "" : ` at ${name}(${xs[w]}${pair ? `, ${ys[w]}` : ""}) = ${values[w]}`;
      t.diagnostic(`${what}: max error ${stats.max.toFixed(4)} ulp${at}`);
      t.diagnostic(
        `${what}: not correctly rounded (error > 0.5 ulp) on ${stats.notRounded} of ${stats.checked} ` +
          `(${percent(stats.notRounded, stats.checked)}), above 1 ulp on ${stats.aboveOne}`,
      );
    };
    report(main, name === "pow" ? "pow, |y| ≤ 2^31" : name);
    if (name === "pow") report(shortcut, "pow, |y| > 2^31");
    t.diagnostic(`${name}: reference and errors ${(ms / 1000).toFixed(2)} s`);
    if (tiny + infinite > 0) {
      t.diagnostic(
        `${name}: checked too (none skipped): ${tiny} subnormal or zero results, ${infinite} overflows to ±∞`,
      );
    }
    if (beyond > 0) t.diagnostic(`${name}: ${beyond} arguments with |x| > 2^20 (only in the Node–Chromium check)`);
    if (requiredNaN > 0)
      t.diagnostic(`${name}: ${requiredNaN} pairs whose result must be NaN (negative x, non-integer y)`);
    assert.ok(
      main.checked + shortcut.checked > 0.9 * COUNT,
      `only ${main.checked + shortcut.checked} arguments checked`,
    );
    assert.deepEqual(failures, [], `${name}: errors above the bound`);
  });
}

test("sin and cos of huge arguments (2^20 ≤ |x| ≤ MAX_VALUE): within 1 ulp of mpmath's 300-bit values", (t) => {
  const fixture = JSON.parse(readFileSync(join(repo, "test", "golden", "math-large-trig.json"), "utf8")) as {
    rows: { x: number; sin: number; sinLo: number; cos: number; cosLo: number }[];
  };
  assert.ok(fixture.rows.length >= 500, `${fixture.rows.length} rows`);
  const failures: string[] = [];
  for (const [name, f] of [
    ["sin", sin],
    ["cos", cos],
  ] as const) {
    let max = 0;
    let worst = 0;
    let notRounded = 0;
    let engineDiffers = 0;
    for (const row of fixture.rows) {
      assert.ok(Math.abs(row.x) >= DD_TRIG_LIMIT);
      const v = f(row.x);
      result.hi = name === "sin" ? row.sin : row.cos;
      result.lo = name === "sin" ? row.sinLo : row.cosLo;
      result.scale = 0;
      const error = Math.abs(ulpError(v));
      if (error > 0.5) notRounded++;
      if (error > max) {
        max = error;
        worst = row.x;
      }
      if (error > 1) failures.push(`${name}(${row.x}) = ${v}: ${error} ulp from ${result.hi} + ${result.lo}`);
      if (!same(v, engine[name](row.x))) engineDiffers++;
    }
    t.diagnostic(
      `${name}: max error ${max.toFixed(4)} ulp at x = ${worst}; not correctly rounded on ${notRounded} of ` +
        `${fixture.rows.length}; this engine's Math.${name} differs from ours on ${engineDiffers}`,
    );
  }
  assert.deepEqual(failures, []);
});

test("ECMAScript's special cases (NaN, ±0, ±∞, log 1, pow's table, …): the results Math.* gives", () => {
  const wrong: string[] = [];
  for (const name of NAMES) {
    const a = args(name);
    const values = mine(name);
    const f = engine[name] as (x: number, y: number) => number;
    for (let i = 0; i < a.specCount; i++) {
      const x = a.x[i]!;
      const y = a.y ? a.y[i]! : undefined;
      const expected = f(x, y ?? x);
      if (!same(values[i]!, expected)) {
        wrong.push(
          `${name}(${fmt(x)}${y === undefined ? "" : `, ${fmt(y)}`}) = ${fmt(values[i]!)}, not ${fmt(expected)}`,
        );
      }
    }
    assert.ok(a.specCount >= 5, `${name}: ${a.specCount} special cases`);
  }
  assert.deepEqual(wrong, []);
});

const v8Major = Number(process.versions.v8.split(".")[0]);

test("Node with V8 11: every result has the bits of Math.* (sin and cos where |x| ≤ 2^19·π/2)", {
  skip: v8Major === 11 ? false : `V8 ${process.versions.v8} is not Node 20's V8 11, whose Math.* math.ts follows`,
}, (t) => {
  const mismatches: string[] = [];
  for (const name of NAMES) {
    const a = args(name);
    const values = mine(name);
    const f = engine[name] as (x: number, y: number) => number;
    const ys = a.y ?? a.x;
    let compared = 0;
    let beyond = 0;
    let beyondDiffers = 0;
    for (let i = 0; i < a.x.length; i++) {
      const x = a.x[i]!;
      const theirs = f(x, ys[i]!);
      if ((name === "sin" || name === "cos") && Math.abs(x) > FDLIBM_TRIG_LIMIT) {
        beyond++;
        if (!same(values[i]!, theirs)) beyondDiffers++;
        continue;
      }
      compared++;
      if (!same(values[i]!, theirs) && mismatches.length < 10) {
        const arg = a.y ? `${fmt(x)}, ${fmt(ys[i]!)}` : fmt(x);
        mismatches.push(`${name}(${arg}) = ${fmt(values[i]!)}, Math.${name}: ${fmt(theirs)}`);
      }
    }
    t.diagnostic(
      `${name}: ${compared} results compared` +
        (beyond > 0 ? `; beyond 2^19·π/2 Math.${name} differs from ours on ${beyondDiffers} of ${beyond}` : ""),
    );
  }
  assert.deepEqual(mismatches, []);
});
