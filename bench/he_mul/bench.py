#!/usr/bin/env python3
"""HE Mul benchmark: per-phase medians of fhec's compiled HE Mul (+ rescale), per target.

Runs one `fhec run <program> --json` in which every configuration is timed
in turn, round after round, on the same keys and inputs (these machines are
noisy: ratios within one run are what counts): -O2 for each --target on each
--threads count, and the baseline, `--target=cpu -O0` on one thread. Each is
checked against the GMP reference and the plaintext product. Writes the
results as JSON and prints a table: per-phase medians, total and speed-up
over the baseline, all measured in this run. Peers (desilofhe, SEAL) are
measured side by side by bench/peers/bench.py; HEAAN 2.1 and OpenFHE are not
installable here, so their figures are cited references in
docs/benchmarks.md (source, machine, date), never printed as measured.

Usage: bench/he_mul/bench.py [--program examples/he_mul.mlir] [--target cpu-avx512 ...]
                             [--threads 1 2] [--runs 7] [--json bench/he_mul/results.json]
Targets default to every target this CPU runs (cpu-avx512 needs AVX-512 IFMA).
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
from machine import describe, runnable_targets  # noqa: E402

BASELINE = "-O0 --target=cpu --threads=1"

TABLE = jinja2.Template("""\
HE Mul (+ rescale), {{ r.function }}: logN={{ r.logN }} logQ={{ r.logQ }} logp={{ r.logp }}, \
{{ r.runs }} rounds, per-phase medians (ms)
machine: {{ machine }}
{{ '%-36s' % 'configuration' }}{% for p in phases %}{{ '%9s' % p }}{% endfor %}{{ '%9s %9s %9s' % ('total', 'min', 'speed-up') }}
{% for c in configs %}{{ '%-36s' % c.flags }}{% for p in phases %}{{ '%9.1f' % c.phases_ms_median[p] }}{% endfor %}\
{{ '%9.1f %9.1f %8.1fx' % (c.total_ms_median, c.total_ms_min, base.total_ms_median / c.total_ms_median) }}
{% endfor %}speed-up: against {{ base.flags }} in the same run, medians of the totals
correctness: GMP reference {% for c in configs %}{{ c.reference }}{{ ', ' if not loop.last }}{% endfor %}; \
max error {{ '%.2e' % r.max_error }}
{% for note in notes %}{{ note }}
{% endfor %}""")

PHASES = ["CRT", "NTT", "Hadamard", "iNTT", "iCRT", "other"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--program", default=str(ROOT / "examples" / "he_mul.mlir"))
    ap.add_argument("--target", action="append", help="target at -O2 (repeatable; default: every runnable one)")
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--runs", type=int, default=7, help="timed rounds (>= 5)")
    ap.add_argument("--no-baseline", action="store_true", help=f"leave out the baseline ({BASELINE})")
    ap.add_argument("--json", default=str(ROOT / "bench" / "he_mul" / "results.json"))
    ap.add_argument("--fhec", default=str(ROOT / "build" / "bin" / "fhec"))
    args = ap.parse_args()
    if args.runs < 5:
        ap.error("--runs must be at least 5")
    if any(t < 1 for t in args.threads):
        ap.error("--threads must be positive")
    targets, notes = runnable_targets(args.target or ["cpu", "cpu-avx512"], args.fhec)
    if not targets:
        sys.stderr.write("no requested target runs on this CPU\n" + "\n".join(notes) + "\n")
        return 1
    configs = [f"-O2 --target={t} --threads={n}" for t in reversed(targets) for n in args.threads]
    if not args.no_baseline and BASELINE not in configs:
        configs.append(BASELINE)
    with tempfile.TemporaryDirectory() as tmp:
        raw = pathlib.Path(tmp) / "run.json"
        first, *rest = configs
        cmd = [args.fhec, "run", args.program, "--repeat", str(args.runs), "--json", str(raw)] + first.split()
        cmd += [f"--compare={c}" for c in rest]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0 or not raw.exists():
            sys.stderr.write(proc.stdout + proc.stderr)
            return proc.returncode or 1
        result = json.loads(raw.read_text())
    runs = result["configs"]
    base = next((c for c in runs if c["flags"] == BASELINE), runs[-1])
    for c in runs:
        c["speedup_vs_baseline"] = base["total_ms_median"] / c["total_ms_median"]
    result["baseline"] = base["flags"]
    result["notes"] = notes
    pathlib.Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    print(TABLE.render(r=result, machine=describe(result["machine"]), configs=runs, base=base, phases=PHASES, notes=notes))
    print(f"JSON: {args.json}")
    return 0 if result["pass"] else 2


if __name__ == "__main__":
    sys.exit(main())
