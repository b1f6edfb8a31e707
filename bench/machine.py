"""What the benchmark reports say about the machine, and which targets it runs."""
import json
import os
import pathlib
import subprocess

FHEC = pathlib.Path(__file__).resolve().parents[1] / "build" / "bin" / "fhec"


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


def targets(fhec=FHEC):
    """fhec's target table (fhec --print-targets): name -> {cpu_features, gpu, emulated, missing_here}."""
    out = subprocess.run([str(fhec), "--print-targets"], capture_output=True, text=True, check=True).stdout
    return {t["name"]: t for t in json.loads(out)}


def runnable_targets(wanted, fhec=FHEC):
    """(the targets of `wanted` this CPU runs, notes on the others), as fhec's target table says."""
    table, ok, notes = targets(fhec), [], []
    for t in wanted:
        if t not in table:
            raise SystemExit(f"unknown target '{t}' (known: {', '.join(table)})")
        missing = table[t]["missing_here"]
        if missing:
            notes.append(f"{t} left out: this CPU lacks {', '.join(missing)}")
        else:
            ok.append(t)
    return ok, notes
