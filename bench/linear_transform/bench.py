#!/usr/bin/env python3
"""Linear transforms: a plaintext matrix of k nonzero diagonals times one
ciphertext, as ckks.linear_transform (baby-step giant-step, hoisted baby
steps, inner sums accumulated in the evaluation domain) and as the k
rotate-multiply-adds a user writes by hand, compiled without
fhe-hoist-automorphisms, timed round after round in one run.

The matrix has diagonals 0..k-1 (a band), random in [-1, 1]. The table gives
per k the key switches (rotations) and plaintext products of each form, the
medians and their ratio. Both results are checked against the plaintext
product (2^-10); --check adds the GMP reference (slow at N = 2^16).
desilofhe's matrix_multiply multiplies matrices packed in ciphertexts
(a different operation), so no peer is timed here.

Usage: bench/linear_transform/bench.py [--logN 16 --logQ 1200] [--diagonals 16 64] [--target auto]
                                       [--threads 1] [--runs 3] [--check] [--json ...]
Exit status: non-zero if a check fails.
"""
import argparse
import json
import pathlib
import statistics
import sys
import time

import jinja2
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "python"))
from machine import describe, machine_info  # noqa: E402

import fhec  # noqa: E402

TABLE = jinja2.Template("""\
matrix (k diagonals) x ciphertext: logN={{ logN }} logQ={{ logQ }} logp={{ logp }}, target {{ target }}, \
{{ threads }} thread(s), {{ runs }} rounds, medians (ms)
machine: {{ machine }}
{{ '%4s %14s %14s %12s %14s %7s %10s' % ('k', 'BSGS rot/prod', 'naive rot/prod', 'BSGS', 'naive (no hoist)', 'ratio', 'max error') }}
{% for r in rows %}{{ '%4d %14s %14s %12.1f %14.1f %6.2fx %10.1e' % (r.k, '%d/%d' % (r.bsgs_rotations, r.k), \
'%d/%d' % (r.naive_rotations, r.k), r.bsgs_ms, r.naive_ms, r.ratio, r.max_error) }}
{% endfor %}ratio: BSGS / naive, medians in the same run; rot: key switches; prod: plaintext products
GMP reference: {% for r in rows %}k={{ r.k }} {{ r.reference }}{{ '; ' if not loop.last }}{% endfor %}
""")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--logN", type=int, default=16)
    ap.add_argument("--logQ", type=int, default=1200)
    ap.add_argument("--logp", type=int, default=30)
    ap.add_argument("--diagonals", type=int, nargs="+", default=[16, 64])
    ap.add_argument("--target", default="auto", help="cpu, cpu-avx512 or auto (the best this CPU runs)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3, help="timed rounds (>= 3)")
    ap.add_argument("--check", action="store_true", help="also compare with the GMP reference")
    ap.add_argument("--json", default=str(ROOT / "bench" / "linear_transform" / "results.json"))
    args = ap.parse_args()
    if args.runs < 3 or args.threads < 1 or any(k < 1 for k in args.diagonals):
        ap.error("--runs must be >= 3, --threads and --diagonals positive")
    params = fhec.Params(logN=args.logN, logQ=args.logQ, logp=args.logp, security="none")
    ctx = fhec.Context(params)
    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, params.slots)
    ct = ctx.encrypt(x)
    rows, ok, target = [], True, None
    for k in args.diagonals:
        diagonals = {d: rng.uniform(-1, 1, params.slots) for d in range(k)}

        def bsgs_fn(v):
            return fhec.linear_transform(v, diagonals)

        def naive_fn(v):
            out = v * diagonals[0]
            for d in range(1, k):
                out = out + v.rotate(d) * diagonals[d]
            return out

        bsgs = fhec.compile(params, target=args.target, threads=args.threads)(bsgs_fn)
        naive = fhec.compile(params, target=args.target, threads=args.threads,
                             disabled_passes=["fhe-hoist-automorphisms"])(naive_fn)
        target = bsgs.target
        want = fhec.linear_transform(x, diagonals)
        times = {"bsgs": [], "naive": []}
        outs = {}
        for _ in range(args.runs):
            for name, f in (("bsgs", bsgs), ("naive", naive)):
                t0 = time.perf_counter()
                outs[name] = f(ct)
                times[name].append((time.perf_counter() - t0) * 1e3)
        err = float(max(np.max(np.abs(ctx.decrypt(o)[: params.slots] - want)) for o in outs.values()))
        ok = ok and err < 2**-10
        reference = "not compared (--check)"
        if args.check:
            same = bool(outs["bsgs"] == bsgs.reference(ct)) and bool(outs["naive"] == naive.reference(ct))
            reference = "bit-identical" if same else "MISMATCH"
            ok = ok and same
        b, n = statistics.median(times["bsgs"]), statistics.median(times["naive"])
        rows.append({"k": k, "bsgs_rotations": len(bsgs.galois_elements), "naive_rotations": k - 1,
                     "bsgs_ms": b, "naive_ms": n, "ratio": b / n, "max_error": err, "reference": reference,
                     "bsgs_runs_ms": times["bsgs"], "naive_runs_ms": times["naive"]})
    machine = describe(machine_info())
    report = {"logN": args.logN, "logQ": args.logQ, "logp": args.logp, "target": target, "threads": args.threads,
              "runs": args.runs, "check": args.check, "machine": machine, "rows": rows, "pass": ok}
    print(TABLE.render(**report))
    pathlib.Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
