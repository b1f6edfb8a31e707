"""Per-kernel measurements with Nsight Compute (ncu), for bench/gpu/run.py and model.py.

run.py profiles one call of a case's GPU module under ncu on a lent machine;
model.py --measured sets those kernels beside its estimates (docs/gpu-model.md,
"Measured against the model"). Python standard library only: the GPU machines
carry nothing else.
"""
import csv
import glob
import io
import shutil
import subprocess

# Per launch: its time (ns), DRAM and L2 bytes, warp instructions issued (the
# model's issue slots), shared-memory wavefronts, achieved occupancy, SM clock.
METRICS = ["gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_bytes.sum",
           "smsp__inst_executed.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
           "sm__warps_active.avg.pct_of_peak_sustained_active", "sm__cycles_elapsed.avg.per_second",
           "launch__registers_per_thread", "launch__grid_size", "launch__block_size"]


def find_ncu():
    """ncu on PATH, else the newest under /opt/nvidia/nsight-compute or /usr/local/cuda*; None if absent."""
    hit = shutil.which("ncu")
    if hit:
        return hit
    found = sorted(glob.glob("/opt/nvidia/nsight-compute/*/ncu") + glob.glob("/usr/local/cuda*/bin/ncu"))
    return found[-1] if found else None


def profile(ncu, cmd, report, env, timeout=300):
    """Runs `cmd` under ncu (the card's clocks as found, caches flushed before each launch)
    and returns (exit status, ncu's output, the report's raw CSV or None).

    `report` is the path of the .ncu-rep file without its suffix. If a metric is
    unknown to this ncu, profiles again with the kernel times alone.
    """
    log = ""
    for metrics in (METRICS, METRICS[:1]):
        p = subprocess.run([ncu, "--clock-control", "none", "--metrics", ",".join(metrics), "-f", "-o", str(report)]
                           + [str(c) for c in cmd], capture_output=True, text=True, env=env, timeout=timeout)
        log += p.stdout + p.stderr
        if p.returncode == 0:
            q = subprocess.run([ncu, "--import", str(report) + ".ncu-rep", "--csv", "--page", "raw"],
                               capture_output=True, text=True, timeout=timeout)
            log += q.stderr
            return p.returncode, log, q.stdout if q.returncode == 0 else None
    return p.returncode, log, None


def _number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def parse_csv(text):
    """Launches of a `ncu --csv --page raw` report in launch order: dicts of 'kernel' and the
    METRICS present ('us' for the time). The report's second row holds units; byte
    counts are converted to bytes, times to µs, clocks to Hz."""
    rows = list(csv.reader(io.StringIO(text)))
    start = next((i for i, r in enumerate(rows) if "Kernel Name" in r), None)
    if start is None:
        return []
    header, units = rows[start], rows[start + 1]
    scale = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "KB": 1e3, "MB": 1e6, "GB": 1e9,
             "nsecond": 1e-3, "usecond": 1, "msecond": 1e3, "second": 1e6,
             "hz": 1, "Khz": 1e3, "Mhz": 1e6, "Ghz": 1e9, "cycle/second": 1, "cycle/nsecond": 1e9,
             "cycle/usecond": 1e6}
    launches = []
    for r in rows[start + 2:]:
        if len(r) != len(header):
            continue
        launch = {"kernel": r[header.index("Kernel Name")]}
        for name, unit, value in zip(header, units, r):
            if name in METRICS:
                v = _number(value)
                if v is not None:
                    launch[name] = v * scale.get(unit, 1)
        if "gpu__time_duration.sum" in launch:
            launch["us"] = launch.pop("gpu__time_duration.sum")
        launches.append(launch)
    return launches
