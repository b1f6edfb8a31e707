#!/usr/bin/env python3
"""Bootstrapping: fhec's compiled ckks.bootstrap (x.bootstrap(), docs/bootstrapping.md)
per thread count, with its key generation, key memory, precision and the levels it
leaves; with --peers, DESILO's desilofhe full-slot bootstrap side by side (PyPI,
scripts/setup.sh --bench; its keys take about 17.5 GB and 100 s at N = 2^16).

One run: every figure printed is measured in it. Sparse slots (2 slots <= N/2) use
dense CoeffToSlot/SlotToCoeff unless --level-budget is given; full slots (N/2) are
factored (default budget 3, 3).

Usage: bench/bootstrap/bench.py [--logN 16 --logQ 880 --logp 30 --dnum 2] [--slots 8]
                                [--mod-logq 42 --log-scale 46] [--level-budget 3 3]
                                [--threads 1 2] [--runs 3] [--target auto] [--security 128]
                                [--secret ternary | --secret sparse --h 64]
                                [--min-bits 14] [--peers] [--json ...]
Exit status: non-zero if an fhec bootstrap errs more than 2^-min_bits (or, with
--reference, differs from the GMP reference: minutes at N = 2^16).
"""
import argparse
import json
import math
import pathlib
import resource
import sys
import time

import jinja2
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "python"))
from machine import describe, machine_info  # noqa: E402
from peers.bench import med  # noqa: E402

import fhec  # noqa: E402

TABLE = jinja2.Template("""\
bootstrapping: logN={{ logN }} logQ={{ logQ }} logp={{ logp }} dnum={{ dnum }}, {{ runs }} calls, medians
fhec's keys: {{ security }}
machine: {{ machine }}
{{ '%-10s %6s %8s %10s %10s %10s %9s %9s %7s' % ('system', 'slots', 'threads', 'boot (s)', 'keygen (s)', 'keys (MB)', \
'max bits', 'mean bits', 'levels') }}
{% for r in rows %}{{ '%-10s %6d %8d %10s %10s %10s %9s %9s %7s' % (r.system, r.slots, r.threads, \
'%.2f' % r.boot_s if r.boot_s else '-', '%.2f' % r.keygen_s if r.keygen_s else '-', \
'%.0f' % r.keys_mb if r.keys_mb else '-', '%.1f' % r.max_bits if r.max_bits else '-', \
'%.1f' % r.mean_bits if r.mean_bits else '-', r.levels if r.levels is not none else '-') }}{% if r.note %}  {{ r.note }}{% endif %}
{% endfor %}max/mean bits: -log2 of the max/mean error of the decrypted slots against the input's values; \
levels: products of scale 2^{{ logp }} left before the next bootstrap's q0
peak resident memory of this process: {{ '%.2f' % peak_gb }} GB
""")


def bits(err):
    return -math.log2(err) if err > 0 else float("inf")


def fhec_row(args, params, threads):
    t0 = time.perf_counter()
    f = fhec.compile(params, target=args.target, threads=threads)(
        lambda x: x.bootstrap(mod_logq=args.mod_logq, log_scale=args.log_scale, level_budget=args.level_budget))
    compile_s = time.perf_counter() - t0
    security = f.security
    compile_peak_gb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    # Key generation: secret, public and evaluation keys, then the bootstrap's rotation keys.
    t0 = time.perf_counter()
    ctx = fhec.Context(params)
    ctx.keys_for(f)
    keygen = time.perf_counter() - t0
    keys = (sum(len(ctx._keys.to_bytes("rk", g)) for g in ctx.galois_elements) + len(ctx._keys.to_bytes("evk")) +
            sum(len(ctx._keys.to_bytes("ek", q)) for q in f.encapsulation_moduli))
    rng = np.random.default_rng(1)
    v = rng.uniform(-1, 1, params.slots) + 1j * rng.uniform(-1, 1, params.slots)
    logp = args.input_logp or params.logp
    c = ctx.encrypt(v, logq=args.mod_logq + 2 * params.logp, logp=logp)
    f(c)  # the first call derives the keys' RNS/NTT forms
    ms, out = med(lambda: f(c), args.runs)
    if args.reference:
        assert out == f.reference(c), "compiled bootstrap differs from the GMP reference"
    err = np.abs(ctx.decrypt(out, complex=True) - v)
    return {"system": "fhec", "slots": params.slots, "threads": threads, "boot_s": ms / 1e3, "keygen_s": keygen,
            "compile_s": compile_s, "compile_peak_gb": compile_peak_gb, "keys_mb": keys / 2**20, "max_bits": bits(float(err.max())), "mean_bits": bits(float(err.mean())),
            "levels": (out.logq - args.mod_logq) // params.logp, "target": f.target, "security": security,
            "note": f"{f.target}, message at 2^{logp}, q0 = 2^{args.mod_logq}, working scale 2^{args.log_scale}, "
                    + (f"level budget {tuple(args.level_budget)}, " if args.level_budget else "")
                    + f"{len(ctx.galois_elements)} rotation keys, "
                    + ("sparse-secret encapsulation (h' = 32), " if f.encapsulation_moduli else "")
                    + f"compiled in {compile_s:.0f} s (peak so far {compile_peak_gb:.1f} GB)"}


def desilofhe_row(threads, runs):
    try:
        import desilofhe
    except ImportError:
        return None
    e = desilofhe.Engine(mode="cpu", bootstrap=True, thread_count=threads)
    t0 = time.perf_counter()
    sk = e.create_secret_key()
    pk, rlk, ck = e.create_public_key(sk), e.create_relinearization_key(sk), e.create_conjugation_key(sk)
    bk = e.create_bootstrap_key(sk)
    keygen = time.perf_counter() - t0
    rng = np.random.default_rng(1)
    v = rng.uniform(-1, 1, e.slot_count)
    c = e.encrypt(v, pk, level=3)
    ms, out = med(lambda: e.bootstrap(c, rlk, ck, bk), runs)
    err = np.abs(np.asarray(e.decrypt(out, sk)) - v)
    return {"system": "desilofhe", "slots": e.slot_count, "threads": threads, "boot_s": ms / 1e3, "keygen_s": keygen,
            "keys_mb": None, "max_bits": bits(float(err.max())), "mean_bits": bits(float(err.mean())),
            "levels": out.level, "note": "Engine(mode='cpu', bootstrap=True), real input at level 3; its secret's "
                                         "distribution and security level are not documented by the package"}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--logN", type=int, default=16)
    ap.add_argument("--logQ", type=int, default=880)
    ap.add_argument("--logp", type=int, default=30)
    ap.add_argument("--dnum", type=int, default=2, help="digits of hybrid key switching (keys mod P*Q, P = 2^ceil(logQ/dnum))")
    ap.add_argument("--slots", type=int, default=8)
    ap.add_argument("--mod-logq", type=int, default=40,
                    help="bootstrapping's q0 (bits); 40 is the most precise at 8 slots with the dense secret (2^38-2^44 measured)")
    ap.add_argument("--log-scale", type=int, default=46)
    ap.add_argument("--input-logp", type=int, default=None,
                    help="the message's scale in bits (default: --logp); the output keeps it. With the dense "
                         "secret one rounding at scale 2^logp errs about 2^(13.9 - logp) at most over 2^15 slots")
    ap.add_argument("--level-budget", type=int, nargs=2, default=None,
                    help="CoeffToSlot and SlotToCoeff levels of the factored transforms")
    ap.add_argument("--min-bits", type=float, default=14, help="fail below this precision (bits)")
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--target", default="auto")
    # The dense default secret bootstraps through sparse-secret encapsulation
    # (docs/bootstrapping.md); every key (P*Q, and the encapsulation key at
    # q0 P') must pass the level. HEAAN's sparse h = 64 needs --security none
    # at these moduli (102 bits at 2^1760).
    ap.add_argument("--security", default="128", help="the level fhec must estimate (\"none\": only report it)")
    ap.add_argument("--secret", default="ternary", choices=["ternary", "sparse"])
    ap.add_argument("--h", type=int, default=64, help="Hamming weight of a sparse secret")
    ap.add_argument("--reference", action="store_true", help="also check against the GMP reference (slow)")
    ap.add_argument("--peers", action="store_true", help="desilofhe's full-slot bootstrap too (17.5 GB)")
    ap.add_argument("--json", default=str(ROOT / "bench" / "bootstrap" / "results.json"))
    args = ap.parse_args()
    sparse = args.secret == "sparse"
    params = fhec.Params(logN=args.logN, logQ=args.logQ, logp=args.logp, slots=args.slots, security=args.security,
                         dnum=args.dnum, secret=args.secret, h=args.h if sparse else None)
    rows = []
    for t in args.threads:
        rows.append(fhec_row(args, params, t))
    if args.peers:
        for t in args.threads:
            row = desilofhe_row(t, args.runs)
            if row:
                rows.append(row)
    ok = all(r["max_bits"] >= args.min_bits for r in rows if r["system"] == "fhec")
    report = {"logN": args.logN, "logQ": args.logQ, "logp": args.logp, "dnum": args.dnum, "runs": args.runs,
              "security": (f"security = {args.security!r} required of fhec's estimate; "
                           + (f"sparse secret h = {args.h}" if sparse else "uniform ternary secret") + ": "
                           + (rows[0].get("security") or params.security_estimate[1])),
              "machine": describe(machine_info()), "rows": rows,
              "peak_gb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20, "pass": ok}
    print(TABLE.render(**report))
    pathlib.Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
