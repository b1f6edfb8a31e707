#!/usr/bin/env python3
"""HE Mul benchmark: per-phase medians of fhec's compiled HE Mul (+ rescale).

Runs `fhec run <program> --repeat N --json` (compile, keys, encryption, N timed
executions, checks against the GMP reference and the plaintext product), then
writes the results as JSON and prints a human table with the HEAAN 2.1
single-thread baseline measured on this machine kind (1,863 ms median).

Usage: bench/he_mul/bench.py [--program examples/he_mul.mlir] [--runs 7]
                             [--json bench/he_mul/results.json]
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
HEAAN_1T_MS = 1863.0  # HEAAN 2.1 Scheme::mult, 1 thread, median on this machine kind

TABLE = jinja2.Template("""\
HE Mul (+ rescale), {{ r.function }}: logN={{ r.logN }} logQ={{ r.logQ }} logp={{ r.logp }}, \
target {{ r.target }}, {{ r.threads }} thread(s), {{ r.runs }} runs
machine: {{ r.machine.cpu }} ({{ r.machine.cores }} cores, IFMA: {{ 'yes' if r.machine.avx512ifma else 'no' }})
{{ '%-10s %12s %8s' % ('phase', 'median ms', 'share') }}
{% for name, ms in phases %}{{ '%-10s %12.1f %7.1f%%' % (name, ms, 100 * ms / r.total_ms_median) }}
{% endfor %}{{ '%-10s %12.1f' % ('total', r.total_ms_median) }}
{% if paper %}HEAAN 2.1 (1 thread): {{ '%.0f' % heaan }} ms; fhec takes {{ '%.2f' % (r.total_ms_median / heaan) }}x HEAAN's time
{% else %}HEAAN 2.1 baseline: only measured at logN=16 logQ=1200 (not compared)
{% endif %}correctness: GMP reference {{ r.reference }}, max error {{ '%.2e' % r.max_error }}, mean {{ '%.2e' % r.mean_error }}
""")

PHASES = ["CRT", "NTT", "Hadamard", "iNTT", "iCRT", "other"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--program", default=str(ROOT / "examples" / "he_mul.mlir"))
    ap.add_argument("--runs", type=int, default=7, help="timed executions (>= 5)")
    ap.add_argument("--json", default=str(ROOT / "bench" / "he_mul" / "results.json"))
    ap.add_argument("--fhec", default=str(ROOT / "build" / "bin" / "fhec"))
    args = ap.parse_args()
    if args.runs < 5:
        ap.error("--runs must be at least 5")
    with tempfile.TemporaryDirectory() as tmp:
        raw = pathlib.Path(tmp) / "run.json"
        proc = subprocess.run([args.fhec, "run", args.program, "--repeat", str(args.runs), "--json", str(raw)],
                              capture_output=True, text=True)
        if proc.returncode != 0 or not raw.exists():
            sys.stderr.write(proc.stdout + proc.stderr)
            return proc.returncode or 1
        result = json.loads(raw.read_text())
    paper = result["logN"] == 16 and result["logQ"] == 1200
    if paper:
        result["baseline"] = {"name": "HEAAN 2.1 Scheme::mult", "threads": 1, "total_ms_median": HEAAN_1T_MS}
        result["time_vs_baseline"] = result["total_ms_median"] / HEAAN_1T_MS
    pathlib.Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    phases = [(p, result["phases_ms_median"][p]) for p in PHASES]
    print(TABLE.render(r=result, phases=phases, heaan=HEAAN_1T_MS, paper=paper))
    print(f"JSON: {args.json}")
    return 0 if result["pass"] else 2


if __name__ == "__main__":
    sys.exit(main())
