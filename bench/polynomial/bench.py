#!/usr/bin/env python3
"""Polynomial evaluation: tanh's Chebyshev interpolant of degree d on [-4, 4]
applied to one ciphertext by fhec.approx (ckks.poly_eval's baby-step
giant-step sequence), per d, with its depth and products of ciphertexts, and
DESILO's desilofhe evaluate_chebyshev_polynomial on the same coefficients
side by side where installed (scripts/setup.sh --bench) and bench/peers has
settings for the ring. Medians over --runs calls, one run.

Usage: bench/polynomial/bench.py [--logN 16 --logQ 1200 --logp 40] [--degrees 7 15 31 63]
                                 [--target auto] [--threads 1] [--runs 3] [--json ...]
Exit status: non-zero if an output errs more than 2^-10 from tanh's interpolant.
"""
import argparse
import json
import pathlib
import sys

import jinja2
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "python"))
from machine import describe, machine_info  # noqa: E402
from peers.bench import SIZES, med  # noqa: E402

import fhec  # noqa: E402

TABLE = jinja2.Template("""\
tanh on [-4, 4] by its degree-d Chebyshev interpolant: logN={{ logN }} logQ={{ logQ }} logp={{ logp }}, \
target {{ target }}, {{ threads }} thread(s), {{ runs }} calls, medians (ms)
machine: {{ machine }}
{{ '%4s %7s %9s %11s %11s %12s %10s' % ('d', 'depth', 'products', 'fhec', 'desilofhe', 'fhec/desilo', 'max error') }}
{% for r in rows %}{{ '%4d %7d %9d %11.1f %11s %12s %10.1e' % (r.degree, r.depth, r.products, r.fhec_ms, \
'%.1f' % r.desilofhe_ms if r.desilofhe_ms else '-', '%.2fx' % (r.fhec_ms / r.desilofhe_ms) if r.desilofhe_ms else '-', \
r.max_error) }}
{% endfor %}depth: levels used, including 1 for mapping [-4, 4] to [-1, 1]; products: ckks.mul in the program; \
max error: against the interpolant in double, on linspace(-4, 4)
{% if peer_note %}desilofhe: {{ peer_note }}{% endif %}
""")


def desilofhe_engine(logN, threads):
    if logN not in SIZES:
        return None, f"no setting for N = 2^{logN} (bench/peers has {sorted(SIZES)})"
    try:
        import desilofhe
    except ImportError:
        return None, "not installed"
    settings = SIZES[logN]["desilofhe"]
    e = desilofhe.Engine(max_level=settings["max_level"], mode="cpu", thread_count=threads)
    sk = e.create_secret_key()
    return (e, sk, e.create_public_key(sk), e.create_relinearization_key(sk)), \
        f"Engine(max_level={settings['max_level']}, mode='cpu', thread_count={threads}), input on [-1, 1]"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--logN", type=int, default=16)
    ap.add_argument("--logQ", type=int, default=1200)
    # 2^40: at 2^30 the rescales' noise exceeds 2^-10 from d = 15 on at N = 2^16 (docs/benchmarks.md).
    ap.add_argument("--logp", type=int, default=40)
    ap.add_argument("--degrees", type=int, nargs="+", default=[7, 15, 31, 63])
    ap.add_argument("--target", default="auto")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", default=str(ROOT / "bench" / "polynomial" / "results.json"))
    args = ap.parse_args()
    params = fhec.Params(logN=args.logN, logQ=args.logQ, logp=args.logp, security="none")
    ctx = fhec.Context(params)
    x = np.linspace(-4, 4, params.slots)
    ct = ctx.encrypt(x)
    peer, peer_note = desilofhe_engine(args.logN, args.threads)
    rows, ok, target = [], True, None
    for d in args.degrees:
        @fhec.compile(params, target=args.target, threads=args.threads)
        def f(v):
            return fhec.approx(np.tanh, v, (-4, 4), d)

        target = f.target
        ms, out = med(lambda: f(ct), args.runs)
        want = f.plain(x)
        err = float(np.max(np.abs(ctx.decrypt(out).real - want.real)))
        ok = ok and err < 2**-10
        row = {"degree": d, "depth": (params.logQ - out.logq) // params.logp, "products": f.mlir.count("ckks.mul %"),
               "fhec_ms": ms, "max_error": err, "desilofhe_ms": None}
        if peer:
            e, sk, pk, rlk = peer
            coeffs = np.polynomial.chebyshev.Chebyshev.interpolate(np.tanh, d, domain=[-4, 4]).coef
            pct = e.encrypt(np.linspace(-1, 1, e.slot_count), pk)
            row["desilofhe_ms"], _ = med(lambda: e.evaluate_chebyshev_polynomial(pct, list(coeffs), rlk), args.runs)
        rows.append(row)
    report = {"logN": args.logN, "logQ": args.logQ, "logp": args.logp, "target": target, "threads": args.threads,
              "runs": args.runs, "machine": describe(machine_info()), "rows": rows, "peer_note": peer_note,
              "pass": ok}
    print(TABLE.render(**report))
    pathlib.Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
