#!/usr/bin/env python3
"""A GPU cost model that needs no GPU (docs/gpu-model.md).

The program is compiled twice: for --target=cuda (PTX, assembled by ptxas -v
for each kernel's registers, shared memory, stack and spills) and for
--target=cuda-emu --gpu-trace, whose kernels run on this CPU with the GPU's
thread semantics and report every memory access and basic block of a few
sampled blocks per launch (fhec-exec --gpu-trace). The runtime reduces them per
warp to 32-byte sectors, shared-memory wavefronts and issue slots; this script
scales them to the full grid and estimates each launch's time on an H100 SXM
(or an H200) as the largest of its bounds -- DRAM traffic, L2 traffic, issue at
the rate its resident warps allow, shared-memory wavefronts (each with the last
wave's tail), its longest warp's dependent chain -- plus a launch overhead. The emulated result is checked bit for bit against the cpu
target's on the same inputs.

Usage:
  bench/gpu/model.py PROGRAM.mlir [--device h100-sxm|h200] [--json FILE]
  bench/gpu/model.py --case he_mul_paper   (bench/gpu/prepare.py's cases: he_mul_logN12, _logN14, _paper;
      bootstrap_8_slots and bootstrap_full_slots, with --sampled-only)
  bench/gpu/model.py --from-json FILE --device h200   (re-estimate a saved run's trace for another device)
  ... --measured CASE.ncu.csv [--measured-phases CASE.json]   (set each launch beside its ncu
      measurement, bench/gpu/run.py --profile, and each phase beside run.py's CUDA-event medians)
  [--build build] [--gpu-arch sm_90] [--trace-blocks 8] [--function NAME]
  [--sampled-only]   run only the traced blocks of each launch (fhec-exec --trace-sampled-only):
      for programs too long to emulate whole (a bootstrap at N = 2^16); the footprints are
      estimated from those blocks and the result is not checked
At the paper's size the emulation takes a few minutes on two cores.
Exit status: 0 when the emulated result is bit-identical (or not checked, --sampled-only),
1 when it differs, 2 on errors.
"""
import argparse
import glob
import json
import math
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]

# Vendor data-sheet figures (H100 SXM5 80 GB, H200 SXM 141 GB) and the
# model's assumptions, each named in docs/gpu-model.md.
DEVICES = {
    "h100-sxm": {
        "name": "NVIDIA H100 SXM5 80 GB (data sheet)",
        "sms": 132, "clock_hz": 1.98e9, "dram_bytes_per_s": 3.35e12, "l2_bytes": 50 * 2**20,
        "regs_per_sm": 65536, "max_warps_per_sm": 64, "max_blocks_per_sm": 32,
        "shared_per_sm": 228 * 1024, "shared_reserved_per_block": 1024,
    },
    "h200": {
        "name": "NVIDIA H200 SXM 141 GB (data sheet)",
        "sms": 132, "clock_hz": 1.98e9, "dram_bytes_per_s": 4.8e12, "l2_bytes": 60 * 2**20,
        "regs_per_sm": 65536, "max_warps_per_sm": 64, "max_blocks_per_sm": 32,
        "shared_per_sm": 228 * 1024, "shared_reserved_per_block": 1024,
    },
}
ASSUMPTIONS = {
    "l2_bytes_per_s": 7.0e12,          # L2 hit bandwidth (about twice HBM3's; microbenchmarks)
    # The DRAM-bound kernels of 2026-11-28 moved 0.79-0.89 of the data sheet's bandwidth on an
    # H200 (a device-to-device copy there: 0.90); with the tail below, the NTT levels measured
    # on 2026-12-04 fit it too (docs/gpu-model.md, "Calibrated on ncu, 2026-12-04").
    "dram_efficiency": 0.85,
    # Issue: an SM's four schedulers issue one warp instruction each per clock at most; below
    # that, Little's law: a scheduler issues (its resident warps) / (the clocks a warp waits
    # between two issue slots) per clock. 16 clocks is what the H200 showed for the CRT and
    # iCRT kernels (15.3-17.1 at 50% occupancy; in SASS instructions the NTT kernels' 14-17).
    "issue_slots_per_clk_per_sm": 4,
    "issue_latency_clk": 16,
    "shared_wavefronts_per_clk_per_sm": 1,
    "dependent_issue_clk": 4,          # a warp issues a dependent ALU instruction every 4 clocks
    "launch_overhead_us": 2.0,         # per kernel, launched from a CUDA graph
    "saturating_occupancy": 0.5,       # below it the bandwidth bounds scale down in proportion
    # The SMs finish their last blocks at staggered times: a launch of more than one wave runs
    # half a wave's time (bound / ceil(waves) / 2) beyond its throughput bound.
    "tail_waves": 0.5,
    "reg_alloc_unit": 256,             # registers are allocated per warp in units of 256
    "shared_alloc_unit": 128,
}
SECTOR = 32


def find_ptxas():
    for base in (pathlib.Path(sys.prefix), ROOT / ".venv"):
        hits = glob.glob(str(base / "lib" / "python3*" / "site-packages" / "nvidia" / "cuda_nvcc" / "bin" / "ptxas"))
        if hits:
            return hits[0]
    return shutil.which("ptxas")


def parse_ptxas(text):
    """Per kernel: registers, static shared bytes, stack frame and spill bytes, from `ptxas -v`."""
    kernels, current = {}, None
    for line in text.splitlines():
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            current = kernels.setdefault(m.group(1), {"registers": 0, "shared": 0, "stack": 0, "spills": 0})
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and current is not None:
            current["stack"] = int(m.group(1))
            current["spills"] = int(m.group(2)) + int(m.group(3))
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m and current is not None:
            current["registers"] = int(m.group(1))
            s = re.search(r"(\d+) bytes smem", line)
            current["shared"] = int(s.group(1)) if s else 0
    return kernels


def occupancy(threads, registers, shared, dev):
    """Theoretical occupancy of blocks of `threads` threads: (blocks per SM, fraction of the SM's warps, limiter)."""
    a = ASSUMPTIONS
    warps = math.ceil(threads / 32)
    limits = {"warps": dev["max_warps_per_sm"] // warps, "blocks": dev["max_blocks_per_sm"]}
    if registers:
        per_warp = math.ceil(registers * 32 / a["reg_alloc_unit"]) * a["reg_alloc_unit"]
        limits["registers"] = (dev["regs_per_sm"] // per_warp) // warps
    if shared:
        per_block = math.ceil(shared / a["shared_alloc_unit"]) * a["shared_alloc_unit"] + dev["shared_reserved_per_block"]
        limits["shared"] = dev["shared_per_sm"] // per_block
    limiter = min(limits, key=limits.get)
    blocks = limits[limiter]
    return blocks, blocks * warps / dev["max_warps_per_sm"], limiter


def estimate(launch, props, dev):
    """The model's figures for one traced launch (a GpuLaunchTrace as JSON) and its kernel's ptxas properties."""
    a = ASSUMPTIONS
    threads = launch["block"][0] * launch["block"][1] * launch["block"][2]
    warps = math.ceil(threads / 32)
    blocks = launch["blocks"]
    scale = blocks / max(1, launch["traced_blocks"])
    per_sm, occ, limiter = occupancy(threads, props.get("registers", 0), props.get("shared", 0), dev)
    if per_sm == 0:
        raise ValueError(f"{launch['kernel']}: a block of {threads} threads does not fit an SM")
    sms_used = min(dev["sms"], blocks)
    waves = blocks / (per_sm * dev["sms"])
    share = sms_used / dev["sms"]
    # The warps an SM holds at once: its occupancy limit, or fewer in a grid of less than a wave.
    resident = min(per_sm, math.ceil(blocks / sms_used)) * warps
    resident_occ = resident / dev["max_warps_per_sm"]
    # Below the saturating occupancy too few requests are in flight for full bandwidth.
    mem_share = share * min(1.0, resident_occ / a["saturating_occupancy"])
    # Little's law for the schedulers: each resident warp issues every issue_latency_clk on average.
    issue_rate = min(a["issue_slots_per_clk_per_sm"], resident / a["issue_latency_clk"])
    # L2 traffic: what each block's L1 passes on (its distinct sectors), a sector it reads and
    # writes twice (the L1 writes through), and local memory. DRAM traffic: the grid's distinct
    # sectors, read or written once while what it reads fits the L2 with the threads' local
    # memory (written lines are not read again: the L2 evicts them first); beyond it the
    # excess's share (read footprint - L2) / read footprint of the re-reads misses too.
    # Per-thread arrays that ptxas keeps in registers (no stack frame) move nothing.
    local_sectors = launch["local_sectors"] if props.get("stack", 0) else 0
    footprint = launch["global_footprint_sectors"] * SECTOR
    # A sector read and written (an in-place level) crosses DRAM twice (traces
    # before the read/written split: once).
    split = "global_read_sectors" in launch
    moved = (launch["global_read_sectors"] + launch["global_written_sectors"]) * SECTOR if split else footprint
    read = launch["global_read_sectors"] * SECTOR if split else footprint
    l2 = (launch["global_block_sectors"] + local_sectors) * SECTOR * scale + max(0, moved - footprint)
    local = local_sectors * SECTOR * scale
    local_footprint = blocks * threads * props.get("stack", 0)
    total_footprint = read + local_footprint
    fits = total_footprint <= dev["l2_bytes"]
    dram = moved + (0 if fits else local)
    if not fits:
        dram += max(0.0, l2 - local - moved) * (total_footprint - dev["l2_bytes"]) / total_footprint
    bounds = {
        "dram": dram / (dev["dram_bytes_per_s"] * a["dram_efficiency"] * mem_share),
        "l2": l2 / (a["l2_bytes_per_s"] * mem_share),
        "issue": launch["issue_slots"] * scale / (issue_rate * sms_used * dev["clock_hz"]),
        "shared": launch["shared_wavefronts"] * scale / (a["shared_wavefronts_per_clk_per_sm"] * sms_used
                                                         * dev["clock_hz"]),
        "latency": math.ceil(waves) * launch["max_warp_issue_slots"] * a["dependent_issue_clk"] / dev["clock_hz"],
    }
    # The last wave: SMs finish their last blocks at staggered times.
    tail = a["tail_waves"] / math.ceil(waves) if waves > 1 else 0.0
    for k in ("dram", "l2", "issue", "shared"):
        bounds[k] *= 1 + tail
    bound = max(bounds, key=bounds.get)
    requested = launch["global_sectors"] * SECTOR
    return {
        "kernel": launch["kernel"], "phase": launch.get("phase", ""),
        "grid": launch["grid"], "block": launch["block"], "threads": blocks * threads,
        "bytes": dram, "read_bytes": read, "l2_bytes": l2, "footprint_fits_l2": fits,
        "sector_efficiency": launch["global_bytes"] / requested if requested else 1.0,
        "bank_conflict_factor": (launch["shared_wavefronts"] / launch["shared_ideal_wavefronts"]
                                 if launch["shared_ideal_wavefronts"] else 1.0),
        "occupancy": occ, "occupancy_limiter": limiter,
        # the last wave's partial fill lowers the time-averaged occupancy
        "achieved_occupancy": resident_occ * (waves / math.ceil(waves) if waves > 1 else 1.0),
        "registers": props.get("registers", 0),
        "stack": props.get("stack", 0), "spills": props.get("spills", 0),
        "issue_slots": launch["issue_slots"] * scale,
        "bounds_us": {k: v * 1e6 for k, v in bounds.items()},
        "bound": bound, "us": bounds[bound] * 1e6 + a["launch_overhead_us"],
    }


def _phases(rows):
    phases = {}
    for r in rows:
        phases[r["phase"] or "-"] = phases.get(r["phase"] or "-", 0.0) + r["us"]
    return phases


def summarize(rows):
    total_bytes = sum(r["bytes"] for r in rows)
    heavy = [r for r in rows if total_bytes and r["bytes"] > 0.01 * total_bytes]
    call, prep = _split_key_prep(rows, lambda r: r["kernel"])
    return {"launches": len(rows), "bytes": total_bytes, "us": sum(r["us"] for r in rows), "phases_us": _phases(rows),
            # a trace that includes the preparations (fhec-exec --trace-sampled-only): the call alone
            "key_prep_launches": len(prep), "key_prep_us": sum(r["us"] for r in prep),
            "call_us": sum(r["us"] for r in call), "call_phases_us": _phases(call),
            # the issue's acceptance figures: kernels moving > 1% of the bytes
            "heavy_kernels": len(heavy),
            "heavy_min_sector_efficiency": min((r["sector_efficiency"] for r in heavy), default=1.0),
            "heavy_min_occupancy": min((r["occupancy"] for r in heavy), default=1.0),
            "max_stack": max((r["stack"] for r in rows), default=0),
            "max_spills": max((r["spills"] for r in rows), default=0)}


def table(rows, total, device):
    out = [f"GPU cost model: {device['name']} (estimated, not measured)",
           f"{'#':>3} {'kernel':<24} {'phase':<8} {'grid x block':>16} {'MB':>8} {'sect.eff':>8} {'occup.':>12} "
           f"{'regs':>4} {'stack':>5} {'est. us':>9}  bound"]
    for i, r in enumerate(rows):
        occ = f"{r['occupancy'] * 100:.0f}% {r['occupancy_limiter'][:4]}"
        out.append(f"{i:>3} {r['kernel'][:24]:<24} {r['phase'][:8]:<8} "
                   f"{r['grid'][0] * r['grid'][1] * r['grid'][2]:>9} x {r['block'][0] * r['block'][1] * r['block'][2]:<4} "
                   f"{r['bytes'] / 1e6:>8.2f} {r['sector_efficiency'] * 100:>7.0f}% {occ:>12} {r['registers']:>4} "
                   f"{r['stack']:>5} {r['us']:>9.1f}  {r['bound']}")
    out.append(f"total: {total['launches']} launches, {total['bytes'] / 1e6:.1f} MB, estimated {total['us'] / 1e3:.3f} ms")
    out.append("per phase (ms): " + ", ".join(f"{k} {v / 1e3:.3f}" for k, v in total["phases_us"].items()))
    if total["key_prep_launches"]:
        out.append(f"of which the preparations (once, when the module and its keys load): {total['key_prep_launches']} launches, "
                   f"{total['key_prep_us'] / 1e3:.3f} ms; the call: "
                   f"{total['launches'] - total['key_prep_launches']} launches, {total['call_us'] / 1e3:.3f} ms, "
                   "per phase (ms): " + ", ".join(f"{k} {v / 1e3:.3f}" for k, v in total["call_phases_us"].items()))
    out.append(f"kernels moving > 1% of the bytes: {total['heavy_kernels']}, lowest sector efficiency "
               f"{total['heavy_min_sector_efficiency'] * 100:.0f}%, lowest occupancy "
               f"{total['heavy_min_occupancy'] * 100:.0f}%; largest stack frame {total['max_stack']} B, "
               f"spills {total['max_spills']} B")
    return "\n".join(out)


# The preparations the runtime runs once, outside the call's phases: the keys' when they load
# (__fhec_evk_prepare, __fhec_ek_prepare_<q0>), the constants' when the module loads
# (__fhec_constants_prepare, fhe-hoist-constants).
KEY_PREP = "__fhec_"


def _split_key_prep(items, name):
    """(the function's launches, the preparations'): the runtime prepares the keys when they
    load and the module's constants when it loads (__fhec_*), outside the call's phases."""
    call = [x for x in items if not name(x).startswith(KEY_PREP)]
    prep = [x for x in items if name(x).startswith(KEY_PREP)]
    return call, prep


def _pair(rows, launches, measured):
    """Each estimated launch with the next measured launch of the same kernel (ncu's report is
    in launch order); None where the report has no more launches of it."""
    pos, out = 0, []
    for r, launch in zip(rows, launches):
        p = pos
        while p < len(measured) and measured[p]["kernel"] != r["kernel"]:
            p += 1
        if p == len(measured):
            out.append((r, launch, None))
            continue
        out.append((r, launch, measured[p]))
        pos = p + 1
    return out


def compare(rows, launches, measured, phases_ms=None):
    """Each estimated launch beside its measurement (ncu --csv --page raw, bench/gpu/run.py
    --profile): kernel time (the estimate without the launch gap: ncu times each kernel
    alone), DRAM bytes (read + written), L2 bytes (ncu's lts__t_bytes: the L1's requests and the
    fills from DRAM, so the estimate's L2 traffic plus its DRAM reads), warp instructions (the trace's issue slots) and occupancy
    (the model's achieved estimate / ncu's achieved). The preparations (__fhec_*: keys, constants)
    are set apart. With `phases_ms` (run.py's CUDA-event medians per phase) the phases are
    also compared with the estimate including the launch gaps."""
    gap = ASSUMPTIONS["launch_overhead_us"]
    meas_call, meas_prep = _split_key_prep(measured, lambda m: m["kernel"])
    est_call = [(r, l) for r, l in zip(rows, launches) if not r["kernel"].startswith(KEY_PREP)]
    out = ["", "estimated / measured (ncu), per launch (us: kernel time without the launch gap):",
           f"{'#':>3} {'kernel':<20} {'phase':<8} {'est us':>7} {'meas':>7} {'ratio':>5}  {'bound':<7} "
           f"{'DRAM MB':>7} {'meas':>7} {'L2 MB':>7} {'meas':>7} {'Minstr':>7} {'meas':>7} {'occ':>4} {'meas':>4}"]
    est_sum = meas_sum = 0.0
    phases = {}
    for i, (r, launch, m) in enumerate(_pair([r for r, _ in est_call], [l for _, l in est_call], meas_call)):
        if m is None:
            out.append(f"{i:>3} {r['kernel'][:20]:<20} not in the measured report")
            continue
        issue = launch["issue_slots"] * launch["blocks"] / max(1, launch["traced_blocks"])
        dram = (m.get("dram__bytes_read.sum", 0) + m.get("dram__bytes_write.sum", 0)) / 1e6
        est, g = r["us"] - gap, m.get("us", 0)
        est_sum += est
        meas_sum += g
        e = phases.setdefault(r["phase"] or "other", [0.0, 0.0, 0])
        e[0] += est
        e[1] += g
        e[2] += 1
        out.append(f"{i:>3} {r['kernel'][:20]:<20} {r['phase'][:8]:<8} {est:>7.1f} {g:>7.1f} "
                   f"{est / g if g else 0:>5.2f}  {r['bound']:<7} {r['bytes'] / 1e6:>7.1f} {dram:>7.1f} "
                   f"{(r['l2_bytes'] + r.get('read_bytes', 0)) / 1e6:>7.1f} {m.get('lts__t_bytes.sum', 0) / 1e6:>7.1f} "
                   f"{issue / 1e6:>7.1f} {m.get('smsp__inst_executed.sum', 0) / 1e6:>7.1f} "
                   f"{r.get('achieved_occupancy', r['occupancy']) * 100:>3.0f}% "
                   f"{m.get('sm__warps_active.avg.pct_of_peak_sustained_active', 0):>3.0f}%")
    out.append(f"kernels: estimated {est_sum / 1e3:.3f} ms, measured {meas_sum / 1e3:.3f} ms "
               f"(ratio {est_sum / meas_sum if meas_sum else 0:.2f})")
    out.append("per phase (ms, estimated / measured, kernel times): " +
               ", ".join(f"{k} {e / 1e3:.3f} / {g / 1e3:.3f}" for k, (e, g, _) in phases.items()))
    if meas_prep:
        out.append(f"key preparation (not part of the call): {len(meas_prep)} measured launches, "
                   f"{sum(m.get('us', 0) for m in meas_prep) / 1e3:.3f} ms")
    if phases_ms:
        est_phase = {}
        for r, _ in est_call:
            est_phase[r["phase"] or "other"] = est_phase.get(r["phase"] or "other", 0.0) + r["us"]
        names = [p for p in phases_ms if phases_ms[p] or est_phase.get(p)]
        out.append("per phase (ms), estimate with launch gaps / CUDA-event median:")
        for p in names:
            e, g = est_phase.get(p, 0.0) / 1e3, phases_ms[p]
            out.append(f"  {p:<9} {e:>8.3f} {g:>8.3f}  " + (f"{e / g - 1:+.0%}" if g else "-"))
        e, g = sum(est_phase.values()) / 1e3, sum(phases_ms.values())
        out.append(f"  {'kernels':<9} {e:>8.3f} {g:>8.3f}  {e / g - 1:+.0%}")
    return "\n".join(out)


def run(cmd, what, differs_ok=False):
    """Runs a step; exit status 1 is accepted only where it means "outputs differ" (fhec-exec)."""
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
    if p.returncode != 0 and not (differs_ok and p.returncode == 1):
        sys.exit(f"model: {what} failed ({p.returncode}):\n{p.stderr}{p.stdout}")
    return p


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("program", nargs="?")
    ap.add_argument("--case")
    ap.add_argument("--device", default="h100-sxm", choices=sorted(DEVICES))
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--gpu-arch", default="sm_90")
    ap.add_argument("--trace-blocks", type=int, default=8)
    ap.add_argument("--sampled-only", action="store_true",
                    help="run only the traced blocks of each launch; the result is not checked")
    ap.add_argument("--function")
    ap.add_argument("--json")
    ap.add_argument("--from-json")
    ap.add_argument("--measured", help="ncu --csv --page raw report of the same program (bench/gpu/run.py)")
    ap.add_argument("--measured-phases", help="run.py's --json of the same program: per-phase CUDA-event medians")
    args = ap.parse_args()
    dev = DEVICES[args.device]
    if args.from_json:
        saved = json.loads(pathlib.Path(args.from_json).read_text())
        return report(saved["program"], saved["launches"], saved["ptxas"], saved["bit_identical"], dev, args)
    if bool(args.program) == bool(args.case):
        ap.error("give a PROGRAM.mlir, --case or --from-json")
    bin_dir = pathlib.Path(args.build) / "bin"
    fhec, exe = bin_dir / "fhec", bin_dir / "fhec-exec"
    ptxas = find_ptxas()
    if not ptxas:
        sys.exit("model: no ptxas (scripts/setup.sh installs nvidia-cuda-nvcc-cu12 into .venv)")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        program = pathlib.Path(args.program) if args.program else tmp / "program.mlir"
        if args.case:
            sys.path.insert(0, str(pathlib.Path(__file__).parent))
            from prepare import BOOTSTRAPS, CASES, PROGRAM, bootstrap_program
            case = {c[0]: c for c in CASES}.get(args.case)
            boot = {b[0]: b for b in BOOTSTRAPS}.get(args.case)
            if case:
                _, logN, logQ = case
                program.write_text(PROGRAM.format(logN=logN, logQ=logQ, slots=2 ** (logN - 1), logq_out=logQ - 30))
            elif boot:
                program.write_text(bootstrap_program(*boot[1:]))
            else:
                sys.exit(f"model: no case {args.case} (cases: {', '.join(c[0] for c in CASES + BOOTSTRAPS)})")
        run([fhec, program, "--target=cuda", "--emit=ptx", "--gpu-arch=" + args.gpu_arch, "-o", tmp / "k.ptx"],
            "compiling for cuda")
        p = run([ptxas, "-arch=" + args.gpu_arch, "-v", tmp / "k.ptx", "-o", tmp / "k.cubin"], "ptxas")
        props = parse_ptxas(p.stderr + p.stdout)
        run([fhec, program, "--target=cuda-emu", "--gpu-trace", "-o", tmp / "emu.so"], "compiling for cuda-emu")
        cmd = [exe, tmp / "emu.so", "--random", "--gpu-trace=" + str(tmp / "trace.json"),
               f"--trace-blocks={args.trace_blocks}"]
        if args.sampled_only:
            cmd.append("--trace-sampled-only")
        else:
            run([fhec, program, "--target=cpu", "-o", tmp / "cpu.so"], "compiling for cpu")
            cmd.append("--expect-from=" + str(tmp / "cpu.so"))
        if args.function:
            cmd.append("--function=" + args.function)
        p = run(cmd, "the emulated run", differs_ok=True)
        identical = None if args.sampled_only else p.returncode == 0
        launches = json.loads((tmp / "trace.json").read_text())
    return report(args.case or str(program), launches, props, identical, dev, args)


def report(program, launches, props, identical, dev, args):
    missing = sorted({l["kernel"] for l in launches} - set(props))
    if missing:
        sys.exit(f"model: kernels traced but not in the PTX: {', '.join(missing)}")
    rows = [estimate(l, props[l["kernel"]], dev) for l in launches]
    total = summarize(rows)
    print(table(rows, total, dev))
    print("emulated result vs cpu target: " + ("not checked (only the traced blocks ran; footprints estimated)"
                                               if identical is None else "bit-identical" if identical else "DIFFERS"))
    if args.measured:
        sys.path.insert(0, str(pathlib.Path(__file__).parent))
        import ncu
        phases = (json.loads(pathlib.Path(args.measured_phases).read_text())["phases_ms_median"]
                  if getattr(args, "measured_phases", None) else None)
        print(compare(rows, launches, ncu.parse_csv(pathlib.Path(args.measured).read_text()), phases))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(
            {"program": program, "device": dev, "assumptions": ASSUMPTIONS, "gpu_arch": args.gpu_arch,
             "trace_blocks": args.trace_blocks, "bit_identical": identical, "total": total, "kernels": rows,
             "launches": launches, "ptxas": props}, indent=1) + "\n")
    return 1 if identical is False else 0

if __name__ == "__main__":
    sys.exit(main())
