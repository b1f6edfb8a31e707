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
    """CPU model name, family and model numbers (-1 if unknown), cores, IFMA.

    Virtual machines often name only "AMD EPYC": the family tells Zen 4 (25 with
    IFMA, one zmm IFMA per cycle) from Zen 5 (26, two).
    """
    fields = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                fields.setdefault(key.strip(), value.strip())
    except OSError:
        pass

    def number(key):
        return int(fields[key]) if fields.get(key, "").isdigit() else -1

    return {"cpu": fields.get("model name", "unknown"), "cpu_family": number("cpu family"),
            "cpu_model": number("model"), "cores": os.cpu_count(), "avx512ifma": "avx512ifma" in cpu_flags()}


def describe(m):
    """One line for a report: 'AMD EPYC (family 25 model 17, 2 cores, IFMA: yes)'."""
    family = f"family {m['cpu_family']} model {m['cpu_model']}, " if m.get("cpu_family", -1) >= 0 else ""
    return f"{m['cpu']} ({family}{m['cores']} cores, IFMA: {'yes' if m['avx512ifma'] else 'no'})"


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
