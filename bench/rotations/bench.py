#!/usr/bin/env python3
"""Hoisted rotations: k rotations of one ciphertext with and without
fhe-hoist-automorphisms, per k, in one `fhec run` per k.

For each k a program of k rotations (offsets 1..k) of one ciphertext at the
top level is timed with fhe-hoist-automorphisms (one CRT and one NTT of ax
shared by the k key switches) and without it (one NTT per rotation), round
after round on the same keys and inputs (--compare), so that the ratio is
measured in one run. Every rotation is one key switch (two Hadamard products,
two iNTTs, two iCRTs with the key); the table gives per k the NTTs of ax
(1 hoisted, k not), the medians of the totals, their ratio, and the split
between the input side (CRT, NTT: what hoisting shares) and the output side
(Hadamard, iNTT, iCRT, and "other": the automorphisms and BigInt additions).
fhec run also checks every output against the plaintext rotation (2^-10);
--check adds the GMP reference (slow at N = 2^16). DESILO's desilofhe, where
installed (scripts/setup.sh --bench) and for a ring bench/peers has settings
for, is measured side by side on the same thread count: rotate_many with k
fixed rotation keys, and k separate rotate calls.

Usage: bench/rotations/bench.py [--logN 16 --logQ 1200] [--counts 1 2 4 8] [--target cpu]
                                [--threads 1] [--runs 5] [--check] [--json bench/rotations/results.json]
Exit status: non-zero if fhec run fails or a check fails.
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

import jinja2

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from machine import describe, runnable_targets  # noqa: E402
from peers.bench import SIZES, med  # noqa: E402

NO_HOIST = "--disable-pass=fhe-hoist-automorphisms"
INPUT_SIDE, OUTPUT_SIDE = ["CRT", "NTT"], ["Hadamard", "iNTT", "iCRT", "other"]

PROGRAM = jinja2.Template("""\
!ct = !ckks.ct<logN = {{ logN }}, logq = {{ logQ }}, logp = 30, slots = {{ slots }}>
module attributes {ckks.params = #ckks.params<logN = {{ logN }}, logQ = {{ logQ }}, logp = 30, security = "none">} {
  func.func @rotations(%a: !ct) -> ({% for r in offsets %}!ct{{ ', ' if not loop.last }}{% endfor %}) {
{% for r in offsets %}    %r{{ r }} = ckks.rotate %a [{{ r }}] : !ct
{% endfor %}    return {% for r in offsets %}%r{{ r }}{{ ', ' if not loop.last }}{% endfor %} : \
{% for r in offsets %}!ct{{ ', ' if not loop.last }}{% endfor %}
  }
}
""")

TABLE = jinja2.Template("""\
k rotations of one ciphertext: logN={{ logN }} logQ={{ logQ }}, {{ flags }} (target {{ target }}), {{ runs }} rounds, medians (ms)
machine: {{ machine }}
{{ '%3s %9s %9s %12s %12s %7s %14s %14s' % ('k', 'NTTs h/n', 'key sw.', 'hoisted', 'not hoisted', 'ratio', 'input h/n', 'output h/n') }}
{% for r in rows %}{{ '%3d %9s %9d %12.1f %12.1f %6.2fx %14s %14s' % (r.k, '1/%d' % r.k, r.k, r.hoisted_ms, r.plain_ms, \
r.ratio, '%.1f/%.1f' % (r.input_ms[0], r.input_ms[1]), '%.1f/%.1f' % (r.output_ms[0], r.output_ms[1])) }}
{% endfor %}ratio: hoisted / not hoisted, medians of the totals in the same run; input: CRT + NTT, \
output: Hadamard + iNTT + iCRT + other
correctness: {% for r in rows %}k={{ r.k }} {{ r.reference }}, max error {{ '%.1e' % r.max_error }}\
{{ '; ' if not loop.last }}{% endfor %}
{% if peer.rows %}desilofhe {{ peer.settings }}, {{ runs }} calls, medians (ms):
{{ '%3s %14s %14s %16s' % ('k', 'rotate_many', 'k x rotate', 'fhec hoisted / rotate_many') }}
{% for p in peer.rows %}{{ '%3d %14.1f %14.1f %15.2fx' % (p.k, p.rotate_many_ms, p.separate_ms, p.fhec_ratio) }}
{% endfor %}{% else %}desilofhe: {{ peer.error }}{% endif %}
""")


def desilofhe_side(logN, threads, counts, runs):
    """desilofhe's rotate_many and k separate rotations per k, or why not."""
    if logN not in SIZES:
        return {"error": f"no setting for N = 2^{logN} (bench/peers has {sorted(SIZES)})", "rows": []}
    try:
        import desilofhe
    except ImportError:
        return {"error": "not installed", "rows": []}
    import numpy as np
    settings = SIZES[logN]["desilofhe"]
    e = desilofhe.Engine(max_level=settings["max_level"], mode="cpu", thread_count=threads)
    sk = e.create_secret_key()
    ct = e.encrypt(np.random.uniform(-1, 1, e.slot_count), e.create_public_key(sk))
    keys = [e.create_fixed_rotation_key(sk, r) for r in range(1, max(counts) + 1)]
    rows = []
    for k in counts:
        many, _ = med(lambda: e.rotate_many(ct, keys[:k]), runs)
        separate, _ = med(lambda: [e.rotate(ct, key) for key in keys[:k]], runs)
        rows.append({"k": k, "rotate_many_ms": many, "separate_ms": separate})
    return {"settings": f"Engine(max_level={settings['max_level']}, mode='cpu', thread_count={threads})",
            "rows": rows}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--logN", type=int, default=16)
    ap.add_argument("--logQ", type=int, default=1200)
    ap.add_argument("--counts", type=int, nargs="+", default=[1, 2, 4, 8])
    ap.add_argument("--target", default="auto", help="cpu, cpu-avx512 or auto (the best this CPU runs)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--runs", type=int, default=5, help="timed rounds (>= 3)")
    ap.add_argument("--check", action="store_true", help="also compare with the GMP reference")
    ap.add_argument("--json", default=str(ROOT / "bench" / "rotations" / "results.json"))
    ap.add_argument("--fhec", default=str(ROOT / "build" / "bin" / "fhec"))
    args = ap.parse_args()
    if args.runs < 3 or args.threads < 1 or any(k < 1 for k in args.counts):
        ap.error("--runs must be >= 3, --threads and --counts positive")
    if args.target != "auto":
        targets, notes = runnable_targets([args.target], args.fhec)
        if not targets:
            sys.stderr.write("\n".join(notes) + "\n")
            return 1
    flags = f"-O2 --target={args.target} --threads={args.threads}"
    rows, machine, target, ok = [], None, None, True
    with tempfile.TemporaryDirectory() as tmp:
        for k in args.counts:
            program = pathlib.Path(tmp) / f"rotations{k}.mlir"
            program.write_text(PROGRAM.render(logN=args.logN, logQ=args.logQ, slots=1 << (args.logN - 1),
                                              offsets=range(1, k + 1)))
            raw = pathlib.Path(tmp) / f"run{k}.json"
            cmd = [args.fhec, "run", str(program), "--repeat", str(args.runs), "--json", str(raw)] + flags.split()
            cmd += [f"--compare={flags} {NO_HOIST}"] + ([] if args.check else ["--no-reference"])
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0 or not raw.exists():
                sys.stderr.write(proc.stdout + proc.stderr)
                return proc.returncode or 1
            result = json.loads(raw.read_text())
            machine, target = result["machine"], result["target"]
            hoisted, plain = result["configs"]
            side = lambda c, phases: sum(c["phases_ms_median"].get(p, 0.0) for p in phases)  # noqa: E731
            rows.append({"k": k, "hoisted_ms": hoisted["total_ms_median"], "plain_ms": plain["total_ms_median"],
                         "ratio": hoisted["total_ms_median"] / plain["total_ms_median"],
                         "input_ms": [side(hoisted, INPUT_SIDE), side(plain, INPUT_SIDE)],
                         "output_ms": [side(hoisted, OUTPUT_SIDE), side(plain, OUTPUT_SIDE)],
                         "reference": result["reference"], "max_error": result["max_error"],
                         "configs": result["configs"]})
            ok = ok and result["pass"]
    peer = desilofhe_side(args.logN, args.threads, args.counts, args.runs)
    for p, r in zip(peer["rows"], rows):
        p["fhec_ratio"] = r["hoisted_ms"] / p["rotate_many_ms"]
    report = {"logN": args.logN, "logQ": args.logQ, "flags": flags, "target": target, "runs": args.runs,
              "machine": machine, "rows": rows, "desilofhe": peer}
    pathlib.Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    print(TABLE.render(**{**report, "machine": describe(machine), "peer": peer}))
    print(f"JSON: {args.json}")
    return 0 if ok else 2


if __name__ == "__main__":
    sys.exit(main())
