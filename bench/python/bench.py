#!/usr/bin/env python3
"""Python frontend benchmark: tracing + compile time of the examples, and what
the binding adds to a call.

1. Tracing and compiling: each example script (examples/python/) reports the
   time of @fhec.compile (trace, scale management, every pass, LLVM, link and
   load); the script runs --rounds times and the median is reported.
2. The binding's cost, in one process: a compiled function's call time from
   Python against the runtime's own time for the same call
   (Executor.last_run_seconds), per call; and, as the issue asks, against
   `fhec run` on the same traced program in alternating rounds (two processes:
   noisier, medians). Both run the same module on one key set's keys.

Usage: bench/python/bench.py [--rounds 5] [--calls 11] [--threads 1] [--json bench/python/results.json]
Writes JSON and prints a table.
"""
import argparse
import json
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import time

import jinja2
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from machine import describe, machine_info  # noqa: E402

import fhec  # noqa: E402

TABLE = jinja2.Template("""\
Python frontend on {{ machine }}, target {{ r.target }}
tracing + compiling (median of {{ r.rounds }} runs of each example script):
{% for e in r.examples %}  {{ '%-24s' % e.name }} {{ '%6.2f s' % e.compile_s_median }}   (runs: {{ e.compile_s_runs | map('round', 2) | join(', ') }})
{% endfor %}one call of a program like the README's (N = 2^{{ r.call.logN }}, {{ r.call.threads }} thread(s), {{ r.call.calls }} calls, medians):
  from Python                {{ '%8.2f ms' % r.call.python_ms }}
  inside the runtime         {{ '%8.2f ms' % r.call.runtime_ms }}   binding adds {{ '%.2f%%' % r.call.binding_overhead_pct }}
  fhec run (same program)    {{ '%8.2f ms' % r.call.fhec_run_ms }}   Python / fhec run = {{ '%.3f' % r.call.python_vs_fhec_run }}
""")


def compile_time(script, target):
    """The 'compiled in X s' an example prints."""
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "python" / script), "--target", target],
                         capture_output=True, text=True, timeout=1800)
    if out.returncode != 0:
        raise SystemExit(f"{script} failed:\n{out.stdout}{out.stderr}")
    return float(re.search(r"compiled in ([\d.]+) s", out.stdout).group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5, help="runs of each example script (>= 3)")
    ap.add_argument("--calls", type=int, default=11, help="timed calls per round (>= 5)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--target", default="cpu")
    ap.add_argument("--json", default=str(ROOT / "bench" / "python" / "results.json"))
    ap.add_argument("--fhec", default=str(ROOT / "build" / "bin" / "fhec"))
    args = ap.parse_args()
    if args.rounds < 3 or args.calls < 5:
        ap.error("--rounds >= 3 and --calls >= 5")

    examples = []
    for script in ("polynomial.py", "logistic_regression.py"):
        runs = [compile_time(script, args.target) for _ in range(args.rounds)]
        examples.append({"name": script, "compile_s_runs": runs, "compile_s_median": statistics.median(runs)})

    # The README's program, rotating below the top level (where HEAAN's key
    # switching is accurate enough for fhec run's 2^-10 check; see README).
    params = fhec.Params(logN=15, logQ=240, logp=30)

    @fhec.compile(params, target=args.target, threads=args.threads)
    def f(x, y):
        return 0.5 + 0.197 * x - 0.004 * x * x * x + (x * y).rotate(1)

    ctx = fhec.Context(params)
    a, b = np.random.default_rng(1).uniform(-1, 1, (2, params.slots))
    ca, cb = ctx.encrypt(a), ctx.encrypt(b)
    f(ca, cb)  # executor, rotation keys
    executor = next(iter(f._executors[ctx].values()))
    py, inside, runner = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        prog = pathlib.Path(tmp) / "f.mlir"
        prog.write_text(f.mlir)
        raw = pathlib.Path(tmp) / "run.json"
        for _ in range(args.rounds):
            for _ in range(args.calls):
                t0 = time.perf_counter()
                f(ca, cb)
                py.append((time.perf_counter() - t0) * 1e3)
                inside.append(executor.last_run_seconds * 1e3)
            proc = subprocess.run([args.fhec, "run", str(prog), "--target", args.target, "--threads", str(args.threads),
                                   "--repeat", str(args.calls), "--no-reference", "--json", str(raw)],
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                raise SystemExit(proc.stdout + proc.stderr)
            runner += json.loads(raw.read_text())["total_ms_runs"]
    overhead = [p - i for p, i in zip(py, inside)]
    call = {
        "logN": params.logN, "threads": args.threads, "calls": len(py),
        "python_ms": statistics.median(py), "runtime_ms": statistics.median(inside),
        "binding_overhead_ms": statistics.median(overhead),
        "binding_overhead_pct": 100 * statistics.median(overhead) / statistics.median(inside),
        "fhec_run_ms": statistics.median(runner),
        "python_vs_fhec_run": statistics.median(py) / statistics.median(runner),
        "python_ms_runs": py, "runtime_ms_runs": inside, "fhec_run_ms_runs": runner,
    }
    result = {"machine": machine_info(), "target": args.target, "rounds": args.rounds, "examples": examples,
              "call": call}
    pathlib.Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    print(TABLE.render(r=result, machine=describe(result["machine"])))
    print(f"JSON: {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
