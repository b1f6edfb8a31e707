#!/usr/bin/env python3
"""GPU benchmark and bit-exact check, run on a lent GPU machine (Python standard library only).

For each case of the bundle (bench/gpu/prepare.py) runs
  fhec-exec gpu.so --random --expect-from=cpu.so --repeat=N --json=...
on fresh keys and random inputs: the GPU's outputs must be bit-identical to
the cpu build's on the same inputs. Reports per-phase medians (CUDA event
times of each phase's kernels), their sum (the kernels' time), the call's total
(with the copies of its ciphertexts between host and device) and the bytes it
copied; then the same module with --on-device, the inputs copied to the GPU once
and the calls run on them there, as a program's chained calls do (the call's
time without copies). For the NTT phases the
time per 2^logN transform of one prime row and the memory bandwidth they
reach (each level launch reads and writes every residue once; counts from
prepare.py's transforms.json) against the GPU's peak. Writes
OUT/results.json and OUT/results.txt.

The cases of prepare.py --avx512 (avx512*.so) run the same check one thread on
the host CPU (its model in the report).

With --profile CASE... (default he_mul_paper), one call of each named case's
GPU module also runs under Nsight Compute (bench/gpu/ncu.py) where the machine
has it: each launch's time, DRAM and L2 bytes, warp instructions and achieved
occupancy go to OUT/CASE.ncu.csv and results.json, for model.py --measured.

Usage: python3 bench/gpu/run.py BUNDLE OUT [--repeat 20] [--profile CASE ...]
Exit status: non-zero if a case fails or differs.
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import ncu  # noqa: E402

# Peak DRAM bandwidth (GB/s) of the GPUs fhec is measured on, by nvidia-smi name prefix
# (vendor data sheets; the longest matching prefix wins).
PEAK_GBPS = {"NVIDIA H100 80GB HBM3": 3350, "NVIDIA H100 PCIe": 2000, "NVIDIA H100 NVL": 3900,
             "NVIDIA H200": 4800, "NVIDIA A100-SXM4-80GB": 2039, "NVIDIA A100-SXM4-40GB": 1555,
             "NVIDIA A100-PCIE-40GB": 1555, "NVIDIA A100 80GB PCIe": 1935}


def gpu_name():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                             capture_output=True, text=True, check=True).stdout.strip()
        return out.splitlines()[0]
    except (OSError, subprocess.CalledProcessError, IndexError):
        return "unknown"


def cpu_name():
    """The host CPU's model name, family and model (the avx512 cases' timings depend on it)."""
    info = {}
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            info.setdefault(key.strip(), value.strip())
    except OSError:
        return "unknown"
    ifma = " avx512ifma" in " " + info.get("flags", "")
    return (f"{info.get('model name', '?')} (family {info.get('cpu family', '?')} model {info.get('model', '?')}, "
            f"{'with' if ifma else 'without'} AVX-512 IFMA)")


def peak_gbps(name):
    for prefix, gbps in sorted(PEAK_GBPS.items(), key=lambda kv: -len(kv[0])):
        if name.startswith(prefix):
            return gbps
    return None


def profile_case(case, so, out, env, result, lines):
    """One call of `so` under ncu: its launches into result["kernels_measured"] and OUT/CASE.ncu.csv."""
    tool = ncu.find_ncu()
    if not tool:
        lines.append("  profile: no ncu on this machine")
        return
    cmd = [case.parents[1] / "bin" / "fhec-exec", so, "--random", "--expect-from=" + str(case / "cpu.so"), "--repeat=1"]
    try:
        status, log, text = ncu.profile(tool, cmd, out / (case.name + ".ncu"), env)
    except subprocess.TimeoutExpired:
        lines.append("  profile: ncu timed out")
        return
    if text is None:
        lines.append(f"  profile: ncu failed (exit {status}): " + " | ".join(log.strip().splitlines()[-5:]))
        return
    (out / (case.name + ".ncu.csv")).write_text(text)
    launches = ncu.parse_csv(text)
    result["kernels_measured"] = launches
    lines.append(f"  profile ({tool}, one call, caches flushed before each launch): {len(launches)} launches, "
                 f"{sum(l.get('us', 0) for l in launches) / 1e3:.3f} ms")
    lines.append(f"  {'#':>3} {'kernel':<34} {'us':>8} {'DRAM MB':>8} {'L2 MB':>8} {'warp inst':>11} "
                 f"{'occup.':>6} {'regs':>4} {'GHz':>5}")
    for i, l in enumerate(launches):
        dram = (l.get("dram__bytes_read.sum", 0) + l.get("dram__bytes_write.sum", 0)) / 1e6
        lines.append(f"  {i:>3} {l['kernel'][:34]:<34} {l.get('us', 0):>8.1f} {dram:>8.2f} "
                     f"{l.get('lts__t_bytes.sum', 0) / 1e6:>8.2f} {l.get('smsp__inst_executed.sum', 0):>11.0f} "
                     f"{l.get('sm__warps_active.avg.pct_of_peak_sustained_active', 0):>5.0f}% "
                     f"{l.get('launch__registers_per_thread', 0):>4.0f} "
                     f"{l.get('sm__cycles_elapsed.avg.per_second', 0) / 1e9:>5.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bundle")
    ap.add_argument("out")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--profile", nargs="*", default=["he_mul_paper"], help="cases to profile under ncu")
    args = ap.parse_args()
    bundle, out = pathlib.Path(args.bundle).resolve(), pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, LD_LIBRARY_PATH=str(bundle / "lib") + ":" + os.environ.get("LD_LIBRARY_PATH", ""))
    gpu = gpu_name()
    peak = peak_gbps(gpu)
    results, lines, failed = [], [f"GPU: {gpu}; peak DRAM bandwidth: {peak or '?'} GB/s", ""], False
    lines.insert(1, f"CPU: {cpu_name()}")
    runs = [(case, so) for case in sorted((bundle / "cases").iterdir())
            for so in sorted(case.glob("*.so")) if so.name != "cpu.so"]
    for case, so in runs:
        name = case.name if so.name == "gpu.so" else f"{case.name}.{so.stem}"
        js = out / (name + ".json")
        cmd = [str(bundle / "bin" / "fhec-exec"), str(so), "--random",
               "--expect-from=" + str(case / "cpu.so"), f"--repeat={args.repeat}", f"--json={js}"]
        if so.name != "gpu.so":
            cmd.append("--threads=1")  # the host CPU's cases (prepare.py --avx512): one thread
        p = subprocess.run(cmd, capture_output=True, text=True, env=env)
        lines.append(f"== {name}: {' '.join(cmd[1:])}")
        lines += p.stdout.splitlines() + p.stderr.splitlines()
        if p.returncode != 0 or not js.exists():
            failed = True
            lines.append(f"FAILED (exit {p.returncode})")
            continue
        r = json.loads(js.read_text())
        r["case"] = name
        results.append(r)
        failed |= any(v != "bit-identical" for v in r["outputs"])
        if so.name != "gpu.so":
            continue
        # The call's total also holds the host<->device copies of its ciphertexts and the host's work
        # around the launches; the phases are the kernels' own times (CUDA events).
        r["kernels_ms"] = sum(r["phases_ms_median"].values())
        lines.append(f"  kernels (sum of the phases) {r['kernels_ms']:.3f} ms of the call's {r['total_ms_median']:.3f} ms, "
                     f"which copied {r['bytes_to_device_per_call'] / 2**20:.1f} MiB to the GPU and "
                     f"{r['bytes_to_host_per_call'] / 2**20:.1f} MiB back")
        dev_js = out / (name + ".on-device.json")
        dev = subprocess.run(cmd[:-1] + [f"--json={dev_js}", "--on-device"], capture_output=True, text=True, env=env)
        lines += ["  --on-device: " + l for l in dev.stdout.splitlines() + dev.stderr.splitlines()]
        if dev.returncode != 0 or not dev_js.exists():
            failed = True
            lines.append(f"  --on-device FAILED (exit {dev.returncode})")
        else:
            d = json.loads(dev_js.read_text())
            failed |= any(v != "bit-identical" for v in d["outputs"])
            r["chained"] = {"total_ms_median": d["total_ms_median"], "kernels_ms": sum(d["phases_ms_median"].values()),
                              "bytes_to_device_per_call": d["bytes_to_device_per_call"],
                              "bytes_to_host_per_call": d["bytes_to_host_per_call"]}
            lines.append(f"  on the device (chained calls): {d['total_ms_median']:.3f} ms per call, "
                         f"{r['chained']['kernels_ms']:.3f} ms of kernels, "
                         f"{d['bytes_to_device_per_call'] + d['bytes_to_host_per_call']} bytes copied")
        if case.name in args.profile:
            profile_case(case, so, out, env, r, lines)
        if not (case / "transforms.json").exists():
            continue  # a program other than HE Mul: checked and timed, no NTT counts
        counts = json.loads((case / "transforms.json").read_text())
        N = 1 << r["logN"]
        r["residue_word_bytes"] = counts["word_bytes"]
        for phase in ("NTT", "iNTT"):
            ms, rows, passes = r["phases_ms_median"][phase], counts[phase]["rows"], counts[phase]["row_passes"]
            if not rows or ms <= 0:
                continue
            # Each level pass reads and writes the N residue words of a row (4 bytes each on the GPU targets).
            gbps = passes * N * counts["word_bytes"] * 2 / (ms * 1e-3) / 1e9
            r[phase + "_us_per_row"] = ms * 1e3 / rows
            r[phase + "_GBps"] = gbps
            lines.append(f"  {phase}: {rows} prime rows of 2^{r['logN']}, {ms * 1e3 / rows:.2f} us each, "
                         f"{gbps:.0f} GB/s" + (f" ({100 * gbps / peak:.0f}% of peak)" if peak else ""))
    # fhe-hoist-automorphisms' gain where a case was built both ways (medians of the same run).
    totals = {r["case"]: r["total_ms_median"] for r in results}
    for name, hoisted in totals.items():
        plain = totals.get(name + "-nohoist")
        if plain:
            lines.append(f"{name}: hoisted / not hoisted = {hoisted:.1f} / {plain:.1f} ms = {hoisted / plain:.2f}x")
    (out / "results.json").write_text(json.dumps({"gpu": gpu, "peak_GBps": peak, "cases": results}, indent=1))
    (out / "results.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
