#!/usr/bin/env python3
"""Optimization-pass benchmark: HE Mul (+ rescale) at the paper size, one process.

Runs one `fhec run` that compiles the program once per configuration and times
them in turn, round after round (so a drift of the machine's speed hits all
alike): -O2 on 1 thread (the reference), -O0, -O1, -O2 without each
optimization pass, and -O2 on 2 threads. Every configuration is checked bit for
bit against the GMP reference. Writes the per-phase medians of every
configuration as JSON and prints a table: each configuration's time relative
to -O2, i.e. the gain each pass brings (ablation), -O2's speed-up over -O0, and
the thread scaling, and the incomplete NTT (skip 1 or 2 stages) against the complete one.

Usage: bench/passes/bench.py [--program examples/he_mul.mlir] [--runs 5]
                             [--json bench/passes/results.json]
Exit status: non-zero if fhec run fails or a correctness check fails.
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
from machine import describe  # noqa: E402

PASSES = ["fhe-reorder-icrt", "fhe-merge-ntt-levels", "fhe-insert-transposes", "fhe-fuse", "fhec-plan-workspace"]
PHASES = ["CRT", "NTT", "Hadamard", "iNTT", "iCRT", "other"]

TABLE = jinja2.Template("""\
HE Mul (+ rescale), {{ r.function }}: logN={{ r.logN }} logQ={{ r.logQ }} logp={{ r.logp }}, target {{ r.target }}, \
{{ r.runs }} rounds, medians in ms
machine: {{ machine }}
{{ '%-34s' % 'configuration' }}{% for p in phases %}{{ '%9s' % p }}{% endfor %}{{ '%9s %9s %9s %9s %8s' % ('outside', 'total', '(min)', 'vs -O2', 'ref') }}
{% for c in rows %}{{ '%-34s' % c.label }}{% for p in phases %}{{ '%9.1f' % c.phases_ms_median[p] }}{% endfor %}\
{{ '%9.1f %9.1f %9.1f %8.2fx %8s' % (c.outside_kernels_ms_median, c.total_ms_median, c.total_ms_min, c.total_ms_median / base, c.reference[:8]) }}
{% endfor %}
-O2 vs -O0 (1 thread): {{ '%.2f' % speedup }}x faster; iCRT phase {{ '%.2f' % icrt }}x faster
(each "-O2 without X" row: X's gain is its "vs -O2" factor; the incomplete-NTT rows against the complete NTT of -O2)
time outside kernels at -O2: {{ '%.1f' % outside }} ms ({{ '%.1f' % (100 * outside / base) }}% of the total)
2 threads vs 1 thread at -O2: {{ '%.2f' % threads }}x faster
peak workspace at -O2: {{ '%.1f' % (workspace / 2**20) }} MiB
""")


def label(c):
    if "skip-levels" in c["flags"]:
        return "-O2, incomplete NTT (skip %s)" % c["flags"].split("skip-levels=")[1][0]
    if c["threads"] != 1:
        return "-O%d, %d threads" % (c["opt_level"], c["threads"])
    if c["disabled_passes"]:
        return "-O2 without " + ", ".join(c["disabled_passes"])
    return "-O%d" % c["opt_level"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--program", default=str(ROOT / "examples" / "he_mul.mlir"))
    ap.add_argument("--runs", type=int, default=5, help="rounds over all configurations (>= 5)")
    ap.add_argument("--json", default=str(ROOT / "bench" / "passes" / "results.json"))
    ap.add_argument("--fhec", default=str(ROOT / "build" / "bin" / "fhec"))
    args = ap.parse_args()
    if args.runs < 5:
        ap.error("--runs must be at least 5")
    compare = ["-O0 --threads=1", "-O1 --threads=1"]
    compare += ["-O2 --threads=1 --disable-pass=%s" % p for p in PASSES]
    compare += ["-O2 --threads=1 --pass-option=fhe-merge-ntt-levels{skip-levels=%d}" % k for k in (1, 2)]
    compare += ["-O2 --threads=2"]
    cmd = [args.fhec, "run", args.program, "-O2", "--threads=1", "--repeat", str(args.runs)]
    cmd += ["--compare=" + c for c in compare]
    with tempfile.TemporaryDirectory() as tmp:
        raw = pathlib.Path(tmp) / "run.json"
        proc = subprocess.run(cmd + ["--json", str(raw)], capture_output=True, text=True)
        if proc.returncode != 0 or not raw.exists():
            sys.stderr.write(proc.stdout + proc.stderr)
            return proc.returncode or 1
        result = json.loads(raw.read_text())
    configs = result["configs"]
    base = configs[0]["total_ms_median"]
    o0 = next(c for c in configs if c["opt_level"] == 0)
    two = next(c for c in configs if c["threads"] == 2)
    for c in configs:
        c["label"] = label(c)
        c["time_vs_O2"] = c["total_ms_median"] / base
    result["summary"] = {
        "O2_speedup_vs_O0": o0["total_ms_median"] / base,
        "icrt_speedup_vs_O0": o0["phases_ms_median"]["iCRT"] / configs[0]["phases_ms_median"]["iCRT"],
        "outside_kernels_share_O2": configs[0]["outside_kernels_ms_median"] / base,
        "speedup_2_threads": base / two["total_ms_median"],
        "workspace_bytes_O2": configs[0]["workspace_bytes"],
        "pass_gain": {c["disabled_passes"][0]: c["time_vs_O2"] for c in configs if c["disabled_passes"]},
    }
    pathlib.Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    s = result["summary"]
    print(TABLE.render(r=result, machine=describe(result["machine"]), rows=configs, phases=PHASES, base=base, speedup=s["O2_speedup_vs_O0"],
                       icrt=s["icrt_speedup_vs_O0"], outside=configs[0]["outside_kernels_ms_median"],
                       threads=s["speedup_2_threads"], workspace=s["workspace_bytes_O2"]))
    print(f"JSON: {args.json}")
    return 0 if result["pass"] else 2


if __name__ == "__main__":
    sys.exit(main())
