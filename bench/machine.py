"""What the benchmark reports say about the machine, and which targets it runs."""
import os

# The CPU features each fhec target's modules need (passes/Target.cpp).
TARGET_FEATURES = {"cpu": set(), "cpu-avx512": {"avx512f", "avx512dq", "avx512vl", "avx512ifma"}}


def cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def machine_info():
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": model, "cores": os.cpu_count(), "avx512ifma": "avx512ifma" in cpu_flags()}


def runnable_targets(wanted):
    """(the targets of `wanted` this CPU runs, notes on the others)."""
    flags, ok, notes = cpu_flags(), [], []
    for t in wanted:
        if t not in TARGET_FEATURES:
            raise SystemExit(f"unknown target '{t}' (known: {', '.join(TARGET_FEATURES)})")
        missing = TARGET_FEATURES[t] - flags
        if missing:
            notes.append(f"{t} left out: this CPU lacks {', '.join(sorted(missing))}")
        else:
            ok.append(t)
    return ok, notes
