#!/usr/bin/env python3
"""
Writes test/golden/math-large-trig.json: seeded huge arguments x (2^20 <= |x| <= MAX_VALUE) with
sin x and cos x, each as its correctly rounded double and the double nearest to what rounding
left (value - rounded), computed with mpmath at 300 bits and checked against a 1200-bit run.
test/unit/math.test.ts checks src/lib/math.ts's sin and cos against them (within 1 ulp), where its
double-double reference, which reduces by multiples of pi/2 with a 212-bit pi/2, stops.

Run from the repository root: python3 scripts/mathFixture.py (needs mpmath).
"""
import json
import struct
import sys
from pathlib import Path

import mpmath

SEED = 20
COUNT = 600
MASK64 = (1 << 64) - 1


def splitmix64(state):
    """Steele, Lea and Flood's SplitMix64: yields 64-bit integers."""
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def from_bits(bits):
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def arguments():
    rng = splitmix64(SEED)
    named = [
        1e22,
        2.0**20 + 0.5,
        1e300,
        2.0**1023,
        sys.float_info.max,
        6381956970095103 * 2.0**797,  # the double closest to a multiple of pi/2 (Kahan, McDonald)
        5.319372648326541e255,
        -1e100,
    ]
    xs = list(named)
    while len(xs) < len(named) + COUNT:
        r = next(rng)
        exponent = 20 + r % (1023 - 20 + 1)  # |x| in [2^20, 2^1024)
        mantissa = next(rng) & ((1 << 52) - 1)
        sign = (next(rng) & 1) << 63
        xs.append(from_bits(sign | ((exponent + 1023) << 52) | mantissa))
    return xs


def rounded(value):
    """The nearest double to an mpf, and the double nearest to the rest."""
    with mpmath.workprec(53):
        head = +value  # rounds to 53 bits, to nearest
    return float(head), float(value - head)


def values(x, bits):
    with mpmath.workprec(bits):
        v = mpmath.mpf(x)
        return rounded(mpmath.sin(v)), rounded(mpmath.cos(v))


def main():
    rows = []
    for x in arguments():
        (s, s_lo), (c, c_lo) = values(x, 300)
        check = values(x, 1200)
        if check != ((s, s_lo), (c, c_lo)):
            raise SystemExit(f"300 and 1200 bits disagree at x = {x!r}: {check} vs {(s, s_lo), (c, c_lo)}")
        rows.append({"x": x, "sin": s, "sinLo": s_lo, "cos": c, "cosLo": c_lo})
    out = Path(__file__).resolve().parent.parent / "test" / "golden" / "math-large-trig.json"
    document = {
        "about": "sin and cos of huge doubles, correctly rounded (value) and the rest (lo), from mpmath at 300 bits; "
        "written by scripts/mathFixture.py",
        "mpmath": mpmath.__version__,
        "rows": rows,
    }
    # one row per line
    head = json.dumps({k: v for k, v in document.items() if k != "rows"})[:-1]
    lines = ",\n".join(json.dumps(row) for row in rows)
    out.write_text(f'{head}, "rows": [\n{lines}\n]}}\n')
    print(f"{len(rows)} rows -> {out}")


if __name__ == "__main__":
    main()
