#!/usr/bin/env python3
"""NTT benchmark: forward and inverse NTT of one prime, N = 2^12 .. 2^17, µs.

Runs build/bin/fhec-bench-ntt, which compiles the round trip crt -> ntt ->
intt -> icrt for every target and size, checks that it is the identity, and
times the NTT and iNTT kernels in one process, targets and sizes alternating
round by round (warm caches, one thread). Writes the results as JSON and prints
a table of what this run measured; other libraries' NTT figures are cited
references in docs/benchmarks.md (source, machine, date), not printed here.

Usage: bench/ntt/bench.py [--targets cpu,cpu-avx512] [--rounds 41]
                          [--json bench/ntt/results.json]
Targets this CPU cannot run (cpu-avx512 without IFMA) are left out with a note.
Exit status: non-zero if a round trip is wrong or the tool fails.
"""
import argparse
import json
import pathlib
import subprocess
import sys

import jinja2

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from machine import describe, machine_info, runnable_targets  # noqa: E402

TABLE = jinja2.Template("""\
NTT of one prime, warm caches, 1 thread, median of {{ rounds }} rounds (µs); machine: {{ machine }}
{{ '%-6s' % 'N' }}{% for t in targets %}{{ '%15s %15s' % (t + ' fwd', t + ' inv') }}{% endfor %}\
{% if targets|length > 1 %}{{ '%12s' % 'speed-up' }}{% endif %}
{% for n in sizes %}{{ '%-6s' % ('2^%d' % n) }}{% for t in targets %}\
{{ '%15.1f %15.1f' % (res[t][n].ntt_us_median, res[t][n].intt_us_median) }}{% endfor %}\
{% if targets|length > 1 %}{{ '%11.1fx' % (res[targets[0]][n].ntt_us_median / res[targets[-1]][n].ntt_us_median) }}{% endif %}
{% endfor %}{% for note in notes %}{{ note }}
{% endfor %}""")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--targets", default="cpu,cpu-avx512")
    ap.add_argument("--rounds", type=int, default=41, help="rounds (>= 5)")
    ap.add_argument("--min-log", type=int, default=12)
    ap.add_argument("--max-log", type=int, default=17)
    ap.add_argument("--json", default=str(ROOT / "bench" / "ntt" / "results.json"))
    ap.add_argument("--tool", default=str(ROOT / "build" / "bin" / "fhec-bench-ntt"))
    args = ap.parse_args()
    if args.rounds < 5:
        ap.error("--rounds must be at least 5")
    wanted = [t for t in args.targets.split(",") if t]
    targets, notes = runnable_targets(wanted)
    if not targets:
        sys.stderr.write("no requested target runs on this CPU\n")
        return 1
    proc = subprocess.run([args.tool, "--targets=" + ",".join(targets), f"--rounds={args.rounds}",
                           f"--min-log={args.min_log}", f"--max-log={args.max_log}"], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout + proc.stderr)
        return proc.returncode
    results = json.loads(proc.stdout)["results"]
    res = {t: {r["logN"]: r for r in results if r["target"] == t} for t in targets}
    sizes = list(range(args.min_log, args.max_log + 1))
    report = {"machine": machine_info(), "rounds": args.rounds, "threads": 1, "results": results, "notes": notes}
    pathlib.Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    print(TABLE.render(targets=targets, sizes=sizes, res=res, rounds=args.rounds,
                       machine=describe(report["machine"]), notes=notes))
    print(f"JSON: {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
