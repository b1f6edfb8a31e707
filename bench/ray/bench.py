#!/usr/bin/env python3
"""fhec.ray throughput: HE Mul (+ rescale) at the paper's size (N = 2^16,
logQ 1200, logp 30: Jung et al. 2021, Table 6) over a batch of ciphertext
pairs, with 1 and 2 single-threaded Ray workers against a local loop on the
same machine, and what each item costs beyond its kernel.

One process, one local Ray (started here with 6 logical CPUs so that the
1-worker and the 2-worker pools and Ray's floor below coexist; only one of
them runs at a time, on this machine's cores). Each round times the local loop, the 1-worker pool and
the 2-worker pool in turn, on the same batch; throughputs and ratios are
medians over the rounds. Per item (1 worker, where the driver's work runs
beside the worker's):
  kernel      the compiled code's time (the runtime's own clock, in the worker)
  worker      the worker's call: kernel + reading the inputs and writing the
              output (fhec's serialization)
  overhead    1 / throughput - kernel: serialization, transfer, scheduling,
              everything a worker's item costs beyond its kernel.

Ray's own floor, measured in the same rounds: the same items' words through
the same pipeline (2 items in flight per worker) to actors that check them as
fhec's workers do, spin the CPU for the kernel's median time (no memory
traffic: a stand-in kinder to its neighbours than the kernel), write a result
of the output's size, and have it copied out by the driver. What Ray alone
costs on this machine bounds what fhec.ray can reach here.

The parameters are the paper's; at logQ 1200 fhec's estimate does not call
them 128-bit secure (keys mod Q^2), as in bench/he_mul.

Usage: bench/ray/bench.py [--items 24] [--rounds 3] [--json bench/ray/results.json]
Writes JSON and prints a table.
"""
import argparse
import json
import os
import pathlib
import platform
import statistics
import sys
import time

import jinja2
import numpy as np
import ray

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from machine import describe, machine_info  # noqa: E402

import fhec  # noqa: E402
import fhec.ray  # noqa: E402

TABLE = jinja2.Template("""\
fhec.ray on {{ machine }}: HE Mul + rescale, N = 2^{{ r.logN }}, logQ {{ r.logQ }}, target {{ r.target }},
{{ r['items'] }} items per batch ({{ '%.1f' % r.input_mb }} MB in, {{ '%.1f' % r.output_mb }} MB out per item), {{ r.rounds }} rounds, medians
  {{ '%-22s' % 'run' }} {{ '%12s' % 'items/s' }} {{ '%10s' % 'vs local' }}
{% for row in r.rows %}  {{ '%-22s' % row.name }} {{ '%12.2f' % row.items_per_s }} {{ '%10.3f' % row.vs_local }}
{% endfor %}  2 workers / 1 worker: {{ '%.3f' % r.two_vs_one }}
per item, 1 worker:
  kernel                 {{ '%8.1f ms' % r.per_item.kernel_ms }}
  worker's call          {{ '%8.1f ms' % r.per_item.worker_ms }}   (reading and writing ciphertexts: {{ '%.1f ms' % (r.per_item.worker_ms - r.per_item.kernel_ms) }})
  1 / throughput         {{ '%8.1f ms' % r.per_item.wall_ms }}
  overhead               {{ '%8.1f ms' % r.per_item.overhead_ms }}   = {{ '%.1f%%' % r.per_item.overhead_pct }} of the kernel
Ray alone (same bytes, pipeline and checks; the kernel replaced by {{ '%.1f' % r.ray_floor.spin_ms }} ms of CPU spin):
  1 worker {{ '%.2f' % r.ray_floor.one_items_per_s }} items/s, 2 workers {{ '%.2f' % r.ray_floor.two_items_per_s }} items/s: 2 workers / 1 worker {{ '%.3f' % r.ray_floor.two_vs_one }}, overhead {{ '%.1f ms' % r.ray_floor.overhead_ms }} = {{ '%.1f%%' % r.ray_floor.overhead_pct }}
""")


class _Spin:
    """Ray's floor: an item's words in, checked as a worker checks them (the
    top word of each coefficient), `seconds` of CPU, a result of the
    output's size out."""

    def run(self, seconds, out_words, n, *words):
        t = time.process_time()
        high = 0
        for a in words:  # (n, limbs) words each
            high |= int(np.bitwise_or.reduce(a[a.size // n - 1::a.size // n]))
        while time.process_time() - t < seconds:
            pass
        out = np.empty(out_words, np.uint64)
        out.fill(high)
        return out


def ray_alone(actors, wires, seconds, out_words, n):
    """Seconds to push every item through `actors`, 2 in flight per actor, each
    result copied out by this process (as fhec.ray's map does)."""
    t0 = time.perf_counter()
    pending, in_flight, k = list(range(len(wires))), set(), 0
    while pending or in_flight:
        while pending and len(in_flight) < 2 * len(actors):
            in_flight.add(actors[k % len(actors)].run.remote(seconds, out_words, n, *wires[pending.pop(0)]))
            k += 1
        done, _ = ray.wait(list(in_flight), num_returns=1)
        for ref in done:
            in_flight.discard(ref)
            np.array(ray.get(ref))
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--items", type=int, default=24, help="ciphertext pairs per batch")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--logN", type=int, default=16)
    ap.add_argument("--logQ", type=int, default=1200)
    ap.add_argument("--json", default=str(ROOT / "bench" / "ray" / "results.json"))
    args = ap.parse_args()

    params = fhec.Params(logN=args.logN, logQ=args.logQ, logp=30, security="none")
    f = fhec.compile(params, target="auto", threads=1)(lambda x, y: x * y)
    ctx = fhec.Context(params)
    rng = np.random.default_rng(2026)
    batch = [(ctx.encrypt(rng.uniform(-1, 1, 16)), ctx.encrypt(rng.uniform(-1, 1, 16))) for _ in range(args.items)]
    server = ctx.evaluation()

    # A 2 GB object store whose memory is touched once when Ray starts, not
    # page by page as objects first land on it (docs/ray.md).
    os.environ["RAY_preallocate_plasma_memory"] = "1"
    ray.init(address="local", num_cpus=6, object_store_memory=2 << 30, include_dashboard=False,
             logging_level="ERROR", log_to_driver=False)
    pools = {k: fhec.ray.Cluster(workers=k, threads_per_worker=1) for k in (1, 2)}
    local_out = [f(*item) for item in batch]  # warm-up; the reference for bit-identity
    for pool in pools.values():  # warm-up: the workers load the module and the keys, the object store fills once
        assert f.map(batch, cluster=pool, context=server, progress=False) == local_out

    spin_s = statistics.median(pools[1].last_stats["kernel_s"])
    wires = [[w for ct in item for w in ct._ct.wire()[5:]] for item in batch]
    out_words = sum(w.size for w in local_out[0]._ct.wire()[5:])
    spinners = {k: [ray.remote(_Spin).options(num_cpus=1).remote() for _ in range(k)] for k in (1, 2)}
    for actors in spinners.values():
        ray_alone(actors, wires, spin_s, out_words, 1 << args.logN)

    times = {"local": [], 1: [], 2: [], "ray1": [], "ray2": []}
    kernel, worker = [], []
    for _ in range(args.rounds):
        t0 = time.perf_counter()
        for item in batch:
            f(*item)
        times["local"].append(time.perf_counter() - t0)
        for k, pool in pools.items():
            t0 = time.perf_counter()
            out = f.map(batch, cluster=pool, context=server, progress=False)
            times[k].append(time.perf_counter() - t0)
            if out != local_out:
                raise SystemExit(f"{k} worker(s): results differ from the local loop")
            if k == 1:
                kernel += pool.last_stats["kernel_s"]
                worker += pool.last_stats["worker_s"]
        for k, actors in spinners.items():
            times[f"ray{k}"].append(ray_alone(actors, wires, spin_s, out_words, 1 << args.logN))
    for pool in pools.values():
        pool.close()
    ray.shutdown()

    rate = {k: args.items / statistics.median(v) for k, v in times.items()}
    wall = 1 / rate[1]
    kernel_s, worker_s = statistics.median(kernel), statistics.median(worker)
    r = {
        "logN": args.logN, "logQ": args.logQ, "target": f.target, "items": args.items, "rounds": args.rounds,
        "input_mb": 2 * len(batch[0][0].to_bytes()) / 1e6, "output_mb": len(local_out[0].to_bytes()) / 1e6,
        "ray": ray.__version__, "python": platform.python_version(), "machine": machine_info(),
        "seconds": {str(k): v for k, v in times.items()},
        "rows": [{"name": "local loop", "items_per_s": rate["local"], "vs_local": 1.0},
                 {"name": "fhec.ray, 1 worker", "items_per_s": rate[1], "vs_local": rate[1] / rate["local"]},
                 {"name": "fhec.ray, 2 workers", "items_per_s": rate[2], "vs_local": rate[2] / rate["local"]}],
        "two_vs_one": rate[2] / rate[1],
        "per_item": {"kernel_ms": 1e3 * kernel_s, "worker_ms": 1e3 * worker_s, "wall_ms": 1e3 * wall,
                     "overhead_ms": 1e3 * (wall - kernel_s), "overhead_pct": 100 * (wall - kernel_s) / kernel_s},
        "ray_floor": {"spin_ms": 1e3 * spin_s, "one_items_per_s": rate["ray1"], "two_items_per_s": rate["ray2"],
                      "two_vs_one": rate["ray2"] / rate["ray1"], "overhead_ms": 1e3 * (1 / rate["ray1"] - spin_s),
                      "overhead_pct": 100 * (1 / rate["ray1"] - spin_s) / spin_s},
        "bit_identical_to_local": True,
    }
    pathlib.Path(args.json).write_text(json.dumps(r, indent=2) + "\n")
    print(TABLE.render(r=r, machine=describe(r["machine"])))


if __name__ == "__main__":
    main()
